import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { ConsentReceiptSchema, Purpose, receiptExample } from '../../http/consent-answer-parts.js';

/** POST /v2/consent/revoke (ADR 39): with a signed receipt of the revocation (docs/adr/0032). */
export const ConsentRevokedSchema = defineAnswer(
  'ConsentRevoked',
  Type.Object({
    customer_id: Type.String(),
    status: Type.Literal('revoked'),
    revoked_at: Type.String({ format: 'date-time' }),
    purpose: Purpose,
    consent_id: Type.String(),
    receipt: ConsentReceiptSchema,
  }),
  { customer_id: 'cust-8841', status: 'revoked', revoked_at: '2026-12-15T10:00:00.000Z', purpose: 'loan_collections', consent_id: 'cr_0b6f2d8e4a1c4e7f9d3b5a7c9e1f3a5b', receipt: receiptExample },
);
