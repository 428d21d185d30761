import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { CHAIN_ENTRY_EXAMPLE, ChainEntrySchema, ChangeSchema, OperatorActionSchema } from '../../answer-parts.js';

/**
 * GET /v2/admin/accounts/{accountId}/as-of (replay/as-of-replay.ts, AsOfAnswer;
 * docs/adr/0023). `state` and each change's `summary` are what each context's
 * contributor folds: their shapes belong to those contexts, so they stay open here.
 */
export const AccountAsOfSchema = defineAnswer(
  'AccountAsOf',
  Type.Object({
    account_id: Type.String(),
    at: Type.String({ format: 'date-time' }),
    state: Type.Record(Type.String(), Type.Unknown(), {
      description: "One part per contributor: `account`, `keys`, `users`, `consents`, `webhook`, `geofences`, `loans`, `schedules`…, each as that context folds it up to `at` (null where nothing existed)",
    }),
    changes: Type.Array(ChangeSchema, { description: 'Every event that shaped the state, oldest first' }),
    operator_actions: Type.Array(
      OperatorActionSchema,
      { description: 'Changing requests the operator key made on this account' },
    ),
    access: Type.Object({
      total: Type.Integer({ description: 'Entries of the access chain up to `at`' }),
      entries: Type.Array(ChainEntrySchema, { description: 'The newest 1000 of them' }),
      truncated: Type.Boolean(),
    }),
  }),
  {
    account_id: 'acct_7f3a9c2e41b8d05f6a1c',
    at: '2026-11-27T09:00:00.000Z',
    state: {
      account: { account_id: 'acct_7f3a9c2e41b8d05f6a1c', name: 'Kumasi Microcredit Ltd', tier: 'pro', banking: true, ip_allowlist: ['196.216.12.7'] },
      keys: [{ key_prefix: '3f9c2a7b…', kind: 'account', tier: 'pro', revoked_at: null }],
    },
    changes: [{ at: '2026-03-14T09:21:05.000Z', context: 'accounts', stream: 'account-acct_7f3a9c2e41b8d05f6a1c', type: 'AccountOpened', summary: { tier: 'free' } }],
    operator_actions: [{ at: '2026-03-15T10:02:11.000Z', method: 'POST', path: '/v2/admin/accounts/acct_7f3a9c2e41b8d05f6a1c/banking', status: 200, key_prefix: 'a0d1e2f3…', request_id: 'req-1c9b7e3f5a2d' }],
    access: { total: 1, entries: [CHAIN_ENTRY_EXAMPLE], truncated: false },
  },
);
