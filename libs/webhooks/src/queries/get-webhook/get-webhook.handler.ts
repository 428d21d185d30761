import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/src/index.js';
import { configureWebhook } from '../../webhook-commands.js';
import { WebhookNotConfiguredError, webhookStream, webhookView } from '../../domain/webhook.js';

export type WebhookView = ReturnType<typeof webhookView>;

/** GET /v2/webhooks: the calling account's webhook. */
export class GetWebhookQuery extends Query<WebhookView> {
  constructor(readonly accountId: string) {
    super();
  }
}

/** The account's webhook stream, folded (a handful of events; no read model needed). */
@QueryHandler(GetWebhookQuery)
export class GetWebhookHandler implements IQueryHandler<GetWebhookQuery> {
  constructor(private readonly streams: CommandPipeline) {}

  async execute({ accountId }: GetWebhookQuery): Promise<WebhookView> {
    const { state } = await this.streams.read(configureWebhook, webhookStream(accountId));
    if (state.status !== 'configured') throw new WebhookNotConfiguredError();
    return webhookView(state);
  }
}
