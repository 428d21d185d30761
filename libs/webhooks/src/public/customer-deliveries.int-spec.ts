import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { collectionName, EmbeddedReadStore, InvalidCursorError, SecretBox } from '../../../platform/src/index.js';
import type { StoredNotification } from '../domain/notification.js';
import { NotificationCipher } from '../notifications/notification-cipher.js';
import { CustomerDeliveries } from './customer-deliveries.js';
import { DELIVERIES_INDEXES, DELIVERIES_READ_MODEL, type DeliveryDoc } from './webhook-deliveries.read-model.js';

/** A customer's copy pages through their deliveries (issue 30): nothing is dropped past a cap, and a foreign cursor is refused. */
describe("the deliveries naming one customer, paged for the customer's copy", () => {
  it('walks every delivery of the customer by next_cursor, none of another customer, and refuses a cursor it did not give', async () => {
    const store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'customer-deliveries-')));
    try {
      const box = SecretBox.fromKey(randomBytes(32));
      const cipher = new NotificationCipher(box);
      const collection = await store.collection<DeliveryDoc>(collectionName(DELIVERIES_READ_MODEL), DELIVERIES_INDEXES);
      const doc = (id: string, customer: string, minute: number): DeliveryDoc => ({
        id,
        account_id: 'acct_1',
        event_type: 'drift.alert' as DeliveryDoc['event_type'],
        customer_hash: cipher.customerHash('acct_1', customer),
        legacy_customer_id: null,
        notification: {} as StoredNotification,
        event_timestamp: `2026-11-27T00:${String(minute).padStart(2, '0')}:00.000Z`,
        created_at: `2026-11-27T00:${String(minute).padStart(2, '0')}:00.000Z`,
        updated_at: `2026-11-27T00:${String(minute).padStart(2, '0')}:00.000Z`,
        status: 'delivered' as DeliveryDoc['status'],
        attempt_count: 1,
        next_attempt_at: null,
        abandoned_reason: null,
        attempts: [],
      });
      let position = 1n;
      for (let index = 0; index < 5; index++) await collection.apply(`dlv_${index}`, position++, () => doc(`dlv_${index}`, 'subject', index));
      await collection.apply('dlv_other', position++, () => doc('dlv_other', 'someone-else', 9));
      const deliveries = CustomerDeliveries.fromSecretBox(store, box);

      const whole = await deliveries.of('acct_1', 'subject');
      expect(whole).toMatchObject({ truncated: false, next_cursor: null });
      expect(whole.items.map((item) => item.delivery_id).sort()).toEqual(['dlv_0', 'dlv_1', 'dlv_2', 'dlv_3', 'dlv_4']);
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<CustomerDeliveries['of']>> = await deliveries.of('acct_1', 'subject', { cursor, limit: 2 });
        expect(page.items.length).toBeLessThanOrEqual(2);
        expect(page.truncated).toBe(page.next_cursor !== null);
        walked.push(...page.items.map((item) => item.delivery_id));
        cursor = page.next_cursor;
      } while (cursor);
      expect(walked).toEqual(whole.items.map((item) => item.delivery_id));
      await expect(deliveries.of('acct_1', 'subject', { cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(InvalidCursorError);
    } finally {
      await store.close();
    }
  });
});
