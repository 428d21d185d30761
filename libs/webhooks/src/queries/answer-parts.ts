import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENT_TYPES } from '../domain/notification.js';
import { defineAnswer } from '../../../platform/src/index.js';

/** Schema parts the webhook answers share (ADR 39). */

export const WebhookEventTypeSchema = Type.Union(WEBHOOK_EVENT_TYPES.map((type) => Type.Literal(type)));

/** The configuration as GET /v2/webhooks and POST /v2/webhooks/configure answer it: never the secret. */
export const WebhookConfigurationSchema = Type.Object({
  url: Type.String({ format: 'uri' }),
  event_types: Type.Array(WebhookEventTypeSchema),
  secret_length: Type.Integer({ description: 'Characters in the secret; the secret itself is never returned' }),
  configured_at: Type.String({ format: 'date-time' }),
});

export const WEBHOOK_EXAMPLE = {
  url: 'https://hooks.kumasi-microfinance.com.gh/location-events',
  event_types: ['drift' as const, 'geofence_breach' as const],
  secret_length: 48,
  configured_at: '2026-11-27T08:12:44.205Z',
};

/** POST /v2/webhooks/configure and GET /v2/webhooks answer one configuration (ADR 39): both slices take it from here. */
export const WebhookConfigurationAnswerSchema = defineAnswer('WebhookConfigurationAnswer', WebhookConfigurationSchema, WEBHOOK_EXAMPLE);
