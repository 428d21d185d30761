import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { AccessEntrySchema, changeExample, ChangeSchema, Open, OperatorActionSchema } from '../../http/answer-parts.js';

/** GET /v2/compliance/as-of (ADR 39; docs/adr/0023): the account rebuilt from its events at an instant. */
export const AsOfAnswerSchema = defineAnswer(
  'AccountAsOf',
  Type.Object({
    account_id: Type.String(),
    at: Type.String({ format: 'date-time' }),
    state: Open('Each contributor’s part: account, keys, users, consents, webhook, geofences, and what other contexts add'),
    changes: Type.Array(ChangeSchema, { description: 'Every event that shaped that state, oldest first' }),
    operator_actions: Type.Array(OperatorActionSchema, { description: 'Changing requests the operator key made on this account' }),
    access: Type.Object({ total: Type.Integer(), entries: Type.Array(AccessEntrySchema), truncated: Type.Boolean() }),
  }),
  {
    account_id: 'acct_7f3a9c1e',
    at: '2026-11-25T00:00:00.000Z',
    state: { account: { name: 'Adom Microfinance', tier: 'enterprise', status: 'active' }, keys: [{ key_prefix: 'lk_3f9c…', tier: 'enterprise', revoked: false }] },
    changes: [changeExample],
    operator_actions: [],
    access: { total: 0, entries: [], truncated: false },
  },
);
