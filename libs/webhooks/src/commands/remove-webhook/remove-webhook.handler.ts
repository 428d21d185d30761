import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler, SecretBox } from '../../../../platform/src/index.js';
import { webhookDecider, webhookStream, type WebhookCommand, type WebhookEvent, type WebhookState } from '../../domain/webhook.js';
import { webhookSecretCodec } from '../../sealing/webhook-secret-codec.js';

export type RemoveWebhook = Extract<WebhookCommand, { type: 'RemoveWebhook' }>;

/** DELETE /v2/webhooks: pending deliveries are abandoned at their next attempt (not subscribed any more). */
export const removeWebhook = command<RemoveWebhook, WebhookState, WebhookEvent, { box: SecretBox }>({
  name: 'webhooks.remove-webhook',
  stream: (input: RemoveWebhook) => webhookStream(input.account_id),
  decider: webhookDecider,
  inject: { box: SecretBox },
  codec: ({ box }) => webhookSecretCodec(box),
  // The only rule (a webhook must exist) is the decider's: a retry on fresh state decides right.
  onConflict: { retry: 3 },
});

export class RemoveWebhookCommand extends PipelineCommand<RemoveWebhook, WebhookState, WebhookEvent> {}

@CommandHandler(RemoveWebhookCommand)
export class RemoveWebhookHandler extends PipelineHandler<RemoveWebhook, WebhookState, WebhookEvent, { box: SecretBox }> {
  protected readonly definition = removeWebhook;
}
