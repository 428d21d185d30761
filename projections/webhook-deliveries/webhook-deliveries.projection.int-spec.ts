import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Notification } from '../../libs/monitoring/src/index.js';
import { collectionName, EmbeddedReadStore, type RecordedEvent } from '../../libs/platform/src/index.js';
import { DELIVERIES_BY_ACCOUNT, deliveryIdOf, type DeliveryDoc, type DeliveryEvent } from '../../libs/webhooks/src/index.js';
import { webhookDeliveriesProjection } from './webhook-deliveries.projection.js';

const notification = (accountId: string, eventId: string): Notification => ({
  account_id: accountId,
  customer_id: 'cust-1',
  event_type: 'drift',
  occurred_at: '2026-11-22T09:00:00.000Z',
  stream: `location-${accountId}:cust-1`,
  revision: '4',
  event_id: eventId,
});
const attempted = (n: Notification, attempt: number, at: string, status: number): DeliveryEvent => ({
  type: 'WebhookDeliveryAttempted',
  data: {
    delivery_id: deliveryIdOf(n),
    notification: n,
    attempt,
    attempt_id: `attempt-${attempt}`,
    attempted_at: at,
    manual: false,
    outcome: status < 300 ? 'delivered' : 'failed',
    status_code: status,
    error: null,
    duration_ms: 5,
    next_attempt_at: status < 300 ? null : at,
  },
});
let position = 0n;
const recorded = (event: DeliveryEvent): RecordedEvent => ({
  id: `event-${++position}`,
  streamName: `webhook_delivery-x:${event.data.delivery_id}`,
  type: event.type,
  data: { ...event.data } as Record<string, unknown>,
  metadata: { schema_version: 1 },
  revision: 0n,
  position,
  createdAt: new Date(),
});

describe('webhook_deliveries projection', () => {
  let dir: string;
  let store: EmbeddedReadStore;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'webhook-deliveries-'));
    store = await EmbeddedReadStore.open(dir);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('folds attempts into one document per delivery; the same event twice changes nothing', async () => {
    const collection = await store.collection<DeliveryDoc>(collectionName(webhookDeliveriesProjection), webhookDeliveriesProjection.indexes);
    const n = notification('acct_1', 'e1');
    const first = recorded(attempted(n, 1, '2026-11-22T09:00:01.000Z', 500));
    await webhookDeliveriesProjection.apply(first, collection);
    await webhookDeliveriesProjection.apply(recorded(attempted(n, 2, '2026-11-22T09:00:02.000Z', 200)), collection);
    const before = await collection.getStored(deliveryIdOf(n));
    await webhookDeliveriesProjection.apply(first, collection);
    expect(await collection.getStored(deliveryIdOf(n))).toEqual(before);
    expect(before?.doc).toMatchObject({
      account_id: 'acct_1',
      status: 'delivered',
      attempt_count: 2,
      created_at: '2026-11-22T09:00:01.000Z',
      event_timestamp: '2026-11-22T09:00:00.000Z',
      next_attempt_at: null,
    });
    expect(before?.doc.attempts.map((attempt) => attempt.status_code)).toEqual([500, 200]);

    await webhookDeliveriesProjection.apply(
      recorded({ type: 'WebhookRetryRequested', data: { delivery_id: deliveryIdOf(n), account_id: 'acct_1', requested_at: '2026-11-22T09:10:00.000Z' } }),
      collection,
    );
    expect((await collection.get(deliveryIdOf(n)))?.status).toBe('attempted');
  });

  it("lists an account's deliveries newest first, by creation time, and no other account's", async () => {
    const collection = await store.collection<DeliveryDoc>(collectionName(webhookDeliveriesProjection), webhookDeliveriesProjection.indexes);
    const older = notification('acct_2', 'old');
    const newer = notification('acct_2', 'new');
    await webhookDeliveriesProjection.apply(recorded(attempted(older, 1, '2026-11-10T00:00:00.000Z', 200)), collection);
    await webhookDeliveriesProjection.apply(recorded(attempted(newer, 1, '2026-11-21T00:00:00.000Z', 200)), collection);
    await webhookDeliveriesProjection.apply(recorded(attempted(notification('acct_3', 'x'), 1, '2026-11-21T00:00:00.000Z', 200)), collection);
    const all = await collection.find({ index: DELIVERIES_BY_ACCOUNT, equals: ['acct_2'], direction: 'desc' });
    expect(all.items.map((doc) => doc.id)).toEqual([deliveryIdOf(newer), deliveryIdOf(older)]);
    const lastWeek = await collection.find({ index: DELIVERIES_BY_ACCOUNT, equals: ['acct_2'], range: { gte: '2026-11-15T00:00:00.000Z' }, direction: 'desc' });
    expect(lastWeek.items.map((doc) => doc.id)).toEqual([deliveryIdOf(newer)]);
  });
});
