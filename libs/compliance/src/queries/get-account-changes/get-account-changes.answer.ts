import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { changeExample, ChangeSchema, OperatorActionSchema } from '../../answer-parts.js';

/** GET /v2/compliance/changes (ADR 39): what changed in (from, to]. */
export const ChangesAnswerSchema = defineAnswer(
  'AccountChanges',
  Type.Object({
    account_id: Type.String(),
    from: Type.String({ format: 'date-time', description: 'Exclusive' }),
    to: Type.String({ format: 'date-time', description: 'Inclusive' }),
    changes: Type.Array(ChangeSchema),
    operator_actions: Type.Array(OperatorActionSchema),
  }),
  { account_id: 'acct_7f3a9c1e', from: '2026-11-01T00:00:00.000Z', to: '2026-11-25T00:00:00.000Z', changes: [changeExample], operator_actions: [] },
);
