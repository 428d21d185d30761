import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../platform/src/index.js';

/** POST /v2/auth/login and POST /v2/auth/google/mobile (users/personal-tokens.ts, PersonalTokenView). */
export const PersonalTokenSchema = defineAnswer(
  'PersonalToken',
  Type.Object({
    token: Type.String({ description: "Sent as X-API-Key, like a key; scoped to the user and carrying the account's tier. Shown once" }),
    token_prefix: Type.String({ description: 'How the token is named later (audit log, GET /v2/me)' }),
    expires_at: Type.String({ format: 'date-time', description: 'After PERSONAL_TOKEN_TTL_DAYS (default 30)' }),
    user_id: Type.String(),
    account_id: Type.String(),
  }),
  {
    token: 'b71e04c9a3f25d8e6c0a9b7f1d3e5c2a4f6b8d0e2c4a6f8b1d3e5a7c9f0b2d4e',
    token_prefix: 'b71e04c9…',
    expires_at: '2026-12-27T10:15:00.000Z',
    user_id: 'usr_5c1e9a3f7b2d4e6a8c0f',
    account_id: 'acct_7f3a9c2e41b8d05f6a1c',
  },
);
