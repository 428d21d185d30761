import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';

/** POST /v2/auth/forgot-password: one constant answer, whatever the address (PasswordResetRequested). */
export const PasswordResetRequestedSchema = defineAnswer(
  'PasswordResetRequested',
  Type.Object({
    accepted: Type.Literal(true),
    message: Type.String({ description: 'The same text for every address: it does not say whether an account exists' }),
  }),
  {
    accepted: true,
    message: 'If an account with a password signs in with this address, a one-time reset token is on its way to it. It is valid for 30 minutes.',
  },
);
