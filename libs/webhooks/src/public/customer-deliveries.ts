import { collectionName, type ReadStore, type SecretBox } from '../../../platform/src/index.js';
import { NotificationCipher } from '../notifications/notification-cipher.js';
import { DELIVERIES_BY_CUSTOMER, DELIVERIES_INDEXES, DELIVERIES_READ_MODEL, deliveryView, type DeliveryDoc } from './webhook-deliveries.read-model.js';

/** Deliveries in one page of a customer's copy at most (issue 30); `next_cursor` asks for the rest. */
export const CUSTOMER_DELIVERIES_LIMIT = 1000;

/**
 * The webhook deliveries naming one customer (issue 30, the data subject's
 * copy), found by the customer's keyed hash as erasure finds them, shown as
 * GET /v2/webhooks/deliveries shows them. Webhooks publishes and implements
 * this; compliance injects it and never reads the read model itself.
 */
export class CustomerDeliveries {
  constructor(
    private readonly readStore: ReadStore,
    private readonly cipher: NotificationCipher,
  ) {}

  /** With the deployment's SecretBox: the same keyed hash every process computes. */
  static fromSecretBox(readStore: ReadStore, box: SecretBox): CustomerDeliveries {
    return new CustomerDeliveries(readStore, new NotificationCipher(box));
  }

  /** One page: `cursor` is a previous page's `next_cursor` (null on the last page), so nothing is dropped. */
  async of(accountId: string, customerId: string, page: { cursor?: string | null; limit?: number } = {}): Promise<{ items: Array<ReturnType<typeof deliveryView>>; truncated: boolean; next_cursor: string | null }> {
    const collection = await this.readStore.collection<DeliveryDoc>(collectionName(DELIVERIES_READ_MODEL), DELIVERIES_INDEXES);
    const found = await collection.find({
      index: DELIVERIES_BY_CUSTOMER,
      equals: [accountId, this.cipher.customerHash(accountId, customerId)],
      limit: Math.min(page.limit ?? CUSTOMER_DELIVERIES_LIMIT, CUSTOMER_DELIVERIES_LIMIT),
      ...(page.cursor ? { cursor: page.cursor } : {}),
    });
    return { items: found.items.map((doc) => deliveryView(doc, customerId)), truncated: found.nextCursor !== null, next_cursor: found.nextCursor };
  }
}
