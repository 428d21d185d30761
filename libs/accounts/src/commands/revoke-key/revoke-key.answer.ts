import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';

/** DELETE /v2/me/key. */
export const RevokedKeySchema = defineAnswer(
  'RevokedKey',
  Type.Object({
    key_prefix: Type.String({ description: 'The key that was revoked' }),
    revoked: Type.Literal(true),
  }),
  { key_prefix: '3f9c2a7b…', revoked: true },
);
