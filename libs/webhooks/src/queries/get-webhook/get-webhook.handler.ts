import { Injectable } from '@nestjs/common';
import { CommandPipeline } from '../../../../platform/src/index.js';
import { configureWebhook } from '../../commands/configure-webhook/configure-webhook.handler.js';
import { WebhookNotConfiguredError, webhookStream, webhookView } from '../../domain/webhook.js';

/** GET /v2/webhooks: the account's webhook stream, folded (a handful of events; no read model needed). */
@Injectable()
export class GetWebhookHandler {
  constructor(private readonly commands: CommandPipeline) {}

  async execute(accountId: string): Promise<ReturnType<typeof webhookView>> {
    const { state } = await this.commands.read(configureWebhook, webhookStream(accountId));
    if (state.status !== 'configured') throw new WebhookNotConfiguredError();
    return webhookView(state);
  }
}
