/** GET /v2/webhooks answers the configuration as POST /v2/webhooks/configure does: one schema (ADR 39). */
export { WebhookConfigurationAnswerSchema } from '../answer-parts.js';
