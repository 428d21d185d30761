import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';
import { DELIVERY_ERRORS } from '../../domain/delivery.js';
import { WebhookEventTypeSchema } from '../answer-parts.js';

/** GET /v2/webhooks/deliveries (ADR 39). */
export const ListDeliveriesAnswerSchema = defineAnswer(
  'WebhookDeliveriesAnswer',
  Type.Object({
    items: Type.Array(
      Type.Object({
        delivery_id: Type.String({ description: 'For POST /v2/webhooks/retry/{deliveryId}' }),
        event_type: WebhookEventTypeSchema,
        customer_id: Nullable(Type.String({ description: 'null when it cannot be opened' })),
        event_timestamp: Type.String({ format: 'date-time', description: 'The payload `timestamp`: when the event happened' }),
        status: Type.Union([Type.Literal('attempted'), Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('abandoned')]),
        created_at: Type.String({ format: 'date-time' }),
        updated_at: Type.String({ format: 'date-time' }),
        attempt_count: Type.Integer(),
        next_attempt_at: Nullable(Type.String({ format: 'date-time', description: 'When a failed delivery is retried; null once out of retries' })),
        abandoned_reason: Nullable(
          Type.Union([Type.Literal('data_erased'), Type.Literal('not_subscribed'), Type.Literal('retries_exhausted')], { description: 'Why it will not be attempted again by itself' }),
        ),
        attempts: Type.Array(
          Type.Object({
            attempt: Type.Integer(),
            attempt_id: Type.String({ description: "That attempt's X-Webhook-Delivery" }),
            attempted_at: Type.String({ format: 'date-time' }),
            manual: Type.Boolean({ description: 'Asked for with POST /v2/webhooks/retry/{deliveryId}' }),
            outcome: Type.Union([Type.Literal('delivered'), Type.Literal('failed')]),
            status_code: Nullable(Type.Integer({ description: "The receiver's HTTP status; null when none came" })),
            error: Nullable(Type.Union(DELIVERY_ERRORS.map((error) => Type.Literal(error)), { description: 'How an attempt without a usable answer failed' })),
            duration_ms: Type.Number(),
          }),
          { description: 'The newest 50' },
        ),
      }),
    ),
    next_cursor: Nullable(Type.String()),
  }),
  {
    items: [
      {
        delivery_id: 'dlv_5e0c2b9a7d414f3e8b6a1c0d9e2f7a31',
        event_type: 'drift',
        customer_id: 'cust-00417',
        event_timestamp: '2026-11-27T08:40:02.000Z',
        status: 'delivered',
        created_at: '2026-11-27T08:40:02.318Z',
        updated_at: '2026-11-27T08:40:13.901Z',
        attempt_count: 2,
        next_attempt_at: null,
        abandoned_reason: null,
        attempts: [
          { attempt: 2, attempt_id: 'a7f3c1e9-5b2d-4f80-9c6e-1d3a5b7c9e02', attempted_at: '2026-11-27T08:40:13.650Z', manual: false, outcome: 'delivered', status_code: 200, error: null, duration_ms: 251 },
          { attempt: 1, attempt_id: '0b8e6d4c-2a19-4f7e-8d5c-3b1a9f7e5d21', attempted_at: '2026-11-27T08:40:02.401Z', manual: false, outcome: 'failed', status_code: 503, error: null, duration_ms: 1204 },
        ],
      },
    ],
    next_cursor: null,
  },
);
