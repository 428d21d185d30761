import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';

/** POST /v2/auth/reset-password (PasswordResetResult). */
export const PasswordResetAnswerSchema = defineAnswer(
  'PasswordResetAnswer',
  Type.Object({
    user_id: Type.String(),
    account_id: Type.String(),
    password_set_at: Type.String({ format: 'date-time' }),
    personal_tokens_revoked: Type.Integer({ description: 'Personal tokens issued under the old password, now revoked' }),
  }),
  { user_id: 'usr_5c1e9a3f7b2d4e6a8c0f', account_id: 'acct_7f3a9c2e41b8d05f6a1c', password_set_at: '2026-11-27T08:55:31.000Z', personal_tokens_revoked: 1 },
);
