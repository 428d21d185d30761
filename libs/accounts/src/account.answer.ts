import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../platform/src/index.js';
import { TierSchema } from './answer-parts.js';

/** The account after an operator action (account.view.ts): banking access, IP allowlist and tier answer it. */
export const AdminAccountSchema = defineAnswer(
  'AdminAccount',
  Type.Object({
    account_id: Type.String(),
    name: Type.String(),
    email: Type.String({ description: 'The address the account signed up with' }),
    tier: TierSchema,
    daily_limit: Type.Integer({ description: 'Requests per rolling 24 h for the tier' }),
    banking: Type.Boolean({ description: 'Whether the banking features are granted' }),
    ip_allowlist: Type.Array(Type.String(), { description: 'Exact addresses and CIDR ranges allowed on the banking endpoints, normalised; empty: no allowlist' }),
    rate_overrides: Type.Object(
      {
        routing: Type.Optional(Type.Integer({ minimum: 1 })),
        transit: Type.Optional(Type.Integer({ minimum: 1 })),
        navigation: Type.Optional(Type.Integer({ minimum: 1 })),
        language: Type.Optional(Type.Integer({ minimum: 1 })),
        other: Type.Optional(Type.Integer({ minimum: 1 })),
      },
      { additionalProperties: false, description: "The operator's per-minute rates by endpoint group for every key of the account; a group left out has its tier's rate (docs/guides/keys-and-limits.md)" },
    ),
    opened_at: Type.String({ format: 'date-time' }),
  }),
  {
    account_id: 'acct_7f3a9c2e41b8d05f6a1c',
    name: 'Kumasi Microcredit Ltd',
    email: 'ops@kumasi-microcredit.example.com.gh',
    tier: 'pro',
    daily_limit: 20000,
    banking: true,
    ip_allowlist: ['196.216.12.7', '10.0.0.0/8'],
    rate_overrides: { routing: 1500 },
    opened_at: '2026-03-14T09:21:05.000Z',
  },
);
