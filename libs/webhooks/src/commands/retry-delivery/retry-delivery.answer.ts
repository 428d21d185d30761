import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';

/** POST /v2/webhooks/retry/{deliveryId} (ADR 39). */
export const RetryDeliveryAnswerSchema = defineAnswer(
  'WebhookRetryAnswer',
  Type.Object({
    delivery_id: Type.String(),
    status: Type.Literal('attempted', { description: 'A new attempt is queued; GET /v2/webhooks/deliveries shows how it went' }),
    requested_at: Type.String({ format: 'date-time' }),
  }),
  { delivery_id: 'dlv_5e0c2b9a7d414f3e8b6a1c0d9e2f7a31', status: 'attempted', requested_at: '2026-11-27T09:03:17.552Z' },
);
