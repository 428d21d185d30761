import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, CommandPipeline, PipelineCommand, PipelineHandler, type AnswerOf } from '../../../../platform/src/index.js';
import { deliveryDecider, deliveryStream, type DeliveryEvent, type DeliveryState, type RequestRetry } from '../../domain/delivery.js';
import { webhookStream } from '../../domain/webhook.js';
import { CustomerErasures } from '../../delivery/customer-erasures.js';
import { WebhookJobs } from '../../delivery/webhook-jobs.js';
import { NotificationCipher } from '../../notifications/notification-cipher.js';
import { configureWebhook } from '../../webhook-commands.js';
import type { RetryDeliveryAnswerSchema } from './retry-delivery.answer.js';

/** The answer's `requested_at`; the controller adds the delivery's id and status. */
export type RetryRequested = Pick<AnswerOf<typeof RetryDeliveryAnswerSchema>, 'requested_at'>;

/**
 * Records a manual re-send request on the delivery's stream (the delivery
 * shows `attempted`). Another account's delivery is a different stream, so
 * it is as unknown as a made-up id; without an endpoint the re-send could
 * only be abandoned, so it is refused before anything is recorded.
 */
export const requestRetry = command<RequestRetry, DeliveryState, DeliveryEvent, { pipeline: CommandPipeline; cipher: NotificationCipher }>({
  name: 'webhooks.retry-delivery',
  stream: (input: RequestRetry) => deliveryStream(input.account_id, input.delivery_id),
  decider: deliveryDecider,
  inject: { pipeline: CommandPipeline, cipher: NotificationCipher },
  async prepare(input, loaded, { pipeline, cipher }) {
    const { state } = await pipeline.read(configureWebhook, webhookStream(input.account_id));
    // The customer erased since the event (issue 47): the re-send would name them. The processor checks again at attempt time.
    const delivery = loaded.state;
    const erasedAt = delivery.status === 'none' ? null : await new CustomerErasures(pipeline, cipher).recorded(delivery.notification);
    const customer_erased = delivery.status !== 'none' && erasedAt !== null && delivery.notification.occurred_at <= erasedAt;
    return { ...input, webhook_configured: state.status === 'configured', customer_erased };
  },
  // The decider holds both rules (known delivery, configured webhook, the
  // latter read again in prepare): a retry on fresh state decides right.
  onConflict: { retry: 3 },
});

export class RequestRetryCommand extends PipelineCommand<RequestRetry, DeliveryState, DeliveryEvent> {}

@CommandHandler(RequestRetryCommand)
export class RequestRetryHandler extends PipelineHandler<RequestRetry, DeliveryState, DeliveryEvent, { pipeline: CommandPipeline; cipher: NotificationCipher }> {
  protected readonly definition = requestRetry;
}

/** POST /v2/webhooks/retry/{deliveryId}: when the re-send was requested. */
export class RetryDeliveryCommand extends Command<RetryRequested> {
  constructor(
    readonly accountId: string,
    readonly deliveryId: string,
  ) {
    super();
  }
}

/**
 * POST /v2/webhooks/retry/{deliveryId} (interface.md, "Webhook delivery":
 * failed → attempted, manual re-send): a process of two steps, the request
 * recorded, then a `redeliver` job queued under the revision it was recorded
 * at (so repeating the enqueue adds nothing).
 */
@CommandHandler(RetryDeliveryCommand)
export class RetryDeliveryHandler implements ICommandHandler<RetryDeliveryCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly jobs: WebhookJobs,
  ) {}

  async execute({ accountId, deliveryId }: RetryDeliveryCommand): Promise<RetryRequested> {
    const { state, events, revision } = await this.commands.execute(
      new RequestRetryCommand({ type: 'RequestRetry', account_id: accountId, delivery_id: deliveryId, webhook_configured: false }),
    );
    const [requested] = events;
    if (state.status === 'none' || requested?.type !== 'WebhookRetryRequested' || revision === undefined) throw new Error('a retry request recorded nothing');
    await this.jobs.redeliver(state.notification, revision);
    return { requested_at: requested.data.requested_at };
  }
}
