/** POST /v2/webhooks/configure and GET /v2/webhooks (ADR 39): one schema, in queries/answer-parts.ts. */
export { WebhookConfigurationAnswerSchema } from '../../queries/answer-parts.js';
