import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { ConsentReceiptSchema, consentStatusExample, ConsentStatusFields, receiptExample } from '../../http/consent-answer-parts.js';

/** POST /v2/consent/grant (ADR 39; docs/adr/0032). */
export const ConsentGrantedSchema = defineAnswer('ConsentGranted', Type.Object({ ...ConsentStatusFields, receipt: ConsentReceiptSchema }), {
  ...consentStatusExample,
  receipt: receiptExample,
});
