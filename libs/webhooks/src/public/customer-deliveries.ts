import { collectionName, type ReadStore, type SecretBox } from '../../../platform/src/index.js';
import { NotificationCipher } from '../notifications/notification-cipher.js';
import { DELIVERIES_BY_CUSTOMER, DELIVERIES_INDEXES, DELIVERIES_READ_MODEL, deliveryView, type DeliveryDoc } from './webhook-deliveries.read-model.js';

/** Deliveries listed in one customer's copy at most; more are counted as truncated (issue 30). */
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

  async of(accountId: string, customerId: string): Promise<{ items: Array<ReturnType<typeof deliveryView>>; truncated: boolean }> {
    const collection = await this.readStore.collection<DeliveryDoc>(collectionName(DELIVERIES_READ_MODEL), DELIVERIES_INDEXES);
    const page = await collection.find({ index: DELIVERIES_BY_CUSTOMER, equals: [accountId, this.cipher.customerHash(accountId, customerId)], limit: CUSTOMER_DELIVERIES_LIMIT });
    return { items: page.items.map((doc) => deliveryView(doc, customerId)), truncated: page.nextCursor !== null };
  }
}
