import { defineAnswer } from '../../../../platform/src/index.js';
import { WEBHOOK_EXAMPLE, WebhookConfigurationSchema } from '../../queries/answer-parts.js';

/** POST /v2/webhooks/configure and GET /v2/webhooks (ADR 39). */
export const WebhookConfigurationAnswerSchema = defineAnswer('WebhookConfigurationAnswer', WebhookConfigurationSchema, WEBHOOK_EXAMPLE);
