import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { collectionName, command, EVENT_STORE, PipelineCommand, PipelineHandler, READ_STORE, StreamNotFoundError, type EventStore, type ReadStore } from '../../../../platform/src/index.js';
import { deliveryStream } from '../../domain/delivery.js';
import { deliveryErasureDecider, deliveryErasureStream, type DeliveryErasureEvent, type DeliveryErasureState, type EraseDeliveries } from '../../domain/delivery-erasure.js';
import { WebhookJobs } from '../../delivery/webhook-jobs.js';
import { NotificationCipher } from '../../notifications/notification-cipher.js';
import { WEBHOOK_EVENT_TYPES, type CustomerErasure } from '../../domain/notification.js';
import { DELIVERIES_BY_CUSTOMER, DELIVERIES_BY_LEGACY_CUSTOMER, DELIVERIES_INDEXES, DELIVERIES_READ_MODEL, type DeliveryDoc } from '../../public/webhook-deliveries.read-model.js';

/** Records that a customer's deliveries of some types are erased; the webhook_deliveries projection forgets them. */
export const eraseDeliveries = command<EraseDeliveries, DeliveryErasureState, DeliveryErasureEvent>({
  name: 'webhooks.erase-deliveries',
  stream: (input: EraseDeliveries) => deliveryErasureStream(input.account_id, input.customer_hash),
  decider: deliveryErasureDecider,
  // Recording an erasure twice records nothing (the decider checks): a retry on fresh state is safe.
  onConflict: { retry: 3 },
});

/** The erasure record step of the process below (named apart from it: `EraseDeliveriesCommand` is the slice's process). */
export class EraseDeliveriesStepCommand extends PipelineCommand<EraseDeliveries, DeliveryErasureState, DeliveryErasureEvent> {}

@CommandHandler(EraseDeliveriesStepCommand)
export class EraseDeliveriesStepHandler extends PipelineHandler<EraseDeliveries, DeliveryErasureState, DeliveryErasureEvent> {
  protected readonly definition = eraseDeliveries;
}

/** A source's erasure of a customer, as the fan-out read it from the log. */
export class EraseDeliveriesCommand extends Command<void> {
  constructor(readonly erasure: CustomerErasure) {
    super();
  }
}

/**
 * Issue #10, item 6: when a source erases a customer's data (the fan-out sees
 * its erasure event), the delivery history must not keep listing what that
 * data was (customer, type, time). A process of the webhooks context, run by
 * the fan-out: deliveries stored before schema version 2 name the customer in
 * the clear, so their streams are deleted and their automatic jobs removed;
 * the automatic jobs of the customer's other recorded deliveries go too
 * (queued, waiting for a retry, or kept finished: each holds the sealed
 * notification); then the erasure is recorded under the customer's keyed
 * hash, which is all the projection needs to drop the rest. Every step can
 * be repeated.
 *
 * Every event type is erased, not only those the source's data made (issue
 * 47, docs/adr/0055): a `consent_revoked`, `delivery.confirmed` or
 * `reverification.completed` body names the customer too, and a retry after
 * the erasure re-sent them. The delivery processor refuses to send for an
 * erased customer as well (`CustomerErasures`), so a job this step did not
 * find (queued, not yet attempted) sends nothing either.
 */
@CommandHandler(EraseDeliveriesCommand)
export class EraseDeliveriesHandler implements ICommandHandler<EraseDeliveriesCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly cipher: NotificationCipher,
    private readonly jobs: WebhookJobs,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async execute({ erasure }: EraseDeliveriesCommand): Promise<void> {
    const { account_id, customer_id, erased_at } = erasure;
    const customerHash = this.cipher.customerHash(account_id, customer_id);
    const legacy = await this.legacyDeliveries(account_id, customer_id, erased_at);
    for (const id of legacy) {
      await this.jobs.removeDelivery(id);
      await this.events.deleteStream(deliveryStream(account_id, id)).catch((error: unknown) => {
        if (!(error instanceof StreamNotFoundError)) throw error;
      });
    }
    for (const id of await this.recordedDeliveries(account_id, customerHash, erased_at)) await this.jobs.removeDelivery(id);
    await this.commands.execute(
      new EraseDeliveriesStepCommand({
        type: 'EraseDeliveries',
        account_id,
        customer_hash: customerHash,
        event_types: [...WEBHOOK_EVENT_TYPES],
        erased_at,
        legacy_delivery_ids: legacy,
      }),
    );
  }

  private legacyDeliveries(accountId: string, customerId: string, erasedAt: string): Promise<string[]> {
    return this.deliveries(DELIVERIES_BY_LEGACY_CUSTOMER, [accountId, customerId], erasedAt);
  }

  /** Deliveries named by the customer's keyed hash, of any type (the index's prefix). */
  private recordedDeliveries(accountId: string, customerHash: string, erasedAt: string): Promise<string[]> {
    return this.deliveries(DELIVERIES_BY_CUSTOMER, [accountId, customerHash], erasedAt);
  }

  /** Ids of the deliveries `index` finds under `equals`, of events at or before the erasure. */
  private async deliveries(index: string, equals: string[], erasedAt: string): Promise<string[]> {
    const collection = await this.readStore.collection<DeliveryDoc>(collectionName(DELIVERIES_READ_MODEL), DELIVERIES_INDEXES);
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await collection.find({ index, equals, limit: 1000, cursor });
      for (const doc of page.items) if (doc.event_timestamp <= erasedAt) ids.push(doc.id);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return ids;
  }
}
