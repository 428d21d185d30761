import { CommandHandler } from '@nestjs/cqrs';
import { PipelineCommand, PipelineHandler, SecretBox } from '../../../../platform/src/index.js';
import type { WebhookEvent, WebhookState } from '../../domain/webhook.js';
import { UrlGuard } from '../../outbound/url-guard.js';
import { configureWebhook, type ConfigureWebhook } from '../../webhook-commands.js';

/** POST /v2/webhooks/configure, declared in webhook-commands.ts (also what reads the webhook stream). */

export class ConfigureWebhookCommand extends PipelineCommand<ConfigureWebhook, WebhookState, WebhookEvent> {}

@CommandHandler(ConfigureWebhookCommand)
export class ConfigureWebhookHandler extends PipelineHandler<ConfigureWebhook, WebhookState, WebhookEvent, { box: SecretBox; guard: UrlGuard }> {
  protected readonly definition = configureWebhook;
}
