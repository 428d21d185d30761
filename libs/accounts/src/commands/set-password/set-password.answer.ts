import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';

/** POST /v2/me/password (SetPasswordResult). */
export const SetPasswordAnswerSchema = defineAnswer(
  'SetPasswordAnswer',
  Type.Object({
    user_id: Type.String(),
    account_id: Type.String(),
    email: Type.String({ description: 'The address the user signs in with (POST /v2/auth/login)' }),
    password: Type.Union([Type.Literal('attached'), Type.Literal('changed')], { description: '`attached`: the user had no password; `changed`: the current one was verified and replaced' }),
    password_set_at: Type.String({ format: 'date-time' }),
    personal_tokens_revoked: Type.Integer({ description: "The user's other personal tokens revoked by a change (the calling one is kept)" }),
  }),
  {
    user_id: 'usr_5c1e9a3f7b2d4e6a8c0f',
    account_id: 'acct_7f3a9c2e41b8d05f6a1c',
    email: 'ops@kumasi-microcredit.example.com.gh',
    password: 'changed',
    password_set_at: '2026-11-27T08:42:10.000Z',
    personal_tokens_revoked: 2,
  },
);
