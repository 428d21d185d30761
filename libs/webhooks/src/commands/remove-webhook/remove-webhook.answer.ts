import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';

/** DELETE /v2/webhooks (ADR 39). */
export const RemoveWebhookAnswerSchema = defineAnswer('WebhookRemovedAnswer', Type.Object({ removed: Type.Literal(true) }), { removed: true });
