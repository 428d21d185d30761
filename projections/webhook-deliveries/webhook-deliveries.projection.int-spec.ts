import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { collectionName, EmbeddedReadStore, SecretBox, type ReadCollection, type RecordedEvent } from '../../libs/platform/src/index.js';
import {
  DELIVERIES_BY_ACCOUNT,
  deliveryIdOf,
  type DeliveryDoc,
  type DeliveryEvent,
  type Notification,
  type SealedNotification,
  type StoredNotification,
  type WebhookDeliveriesDoc,
  type WebhookDeliveriesErased,
  type WebhookEventType,
} from '../../libs/webhooks/src/index.js';
import { webhookDeliveriesProjection } from './webhook-deliveries.projection.js';

const notification = (accountId: string, eventId: string, customerId = 'cust-1', eventType: WebhookEventType = 'drift', occurredAt = '2026-11-22T09:00:00.000Z'): Notification => ({
  account_id: accountId,
  customer_id: customerId,
  event_type: eventType,
  occurred_at: occurredAt,
  stream: `location-${accountId}:${customerId}`,
  revision: '4',
  event_id: eventId,
});
/** A sealed notification as the fan-out queues it; the projection never opens `sealed`. */
const sealed = (n: Notification): SealedNotification => ({
  account_id: n.account_id,
  event_type: n.event_type,
  occurred_at: n.occurred_at,
  event_id: n.event_id,
  customer_hash: `hash-of-${n.customer_id}`,
  sealed: SecretBox.fromKey(randomBytes(32)).seal('opaque'),
});
const attempted = (n: StoredNotification, attempt: number, at: string, status: number, next: string | null = status < 300 ? null : at): DeliveryEvent => ({
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
    next_attempt_at: next,
  },
});
const erased = (accountId: string, customerId: string, erasedAt: string, legacy: string[] = []): WebhookDeliveriesErased => ({
  type: 'WebhookDeliveriesErased',
  data: { account_id: accountId, customer_hash: `hash-of-${customerId}`, event_types: ['drift', 'geofence_breach'], erased_at: erasedAt, legacy_delivery_ids: legacy },
});
let position = 0n;
const recorded = (event: DeliveryEvent | WebhookDeliveriesErased): RecordedEvent => ({
  id: `event-${++position}`,
  streamName: event.type === 'WebhookDeliveriesErased' ? `webhook_erasure-${event.data.account_id}:${event.data.customer_hash}` : `webhook_delivery-x:${event.data.delivery_id}`,
  type: event.type,
  data: { ...event.data } as Record<string, unknown>,
  metadata: { schema_version: 2 },
  revision: 0n,
  position,
  createdAt: new Date(),
});

describe('webhook_deliveries projection', () => {
  let dir: string;
  let store: EmbeddedReadStore;
  let collection: ReadCollection<WebhookDeliveriesDoc>;
  const apply = (event: RecordedEvent) => webhookDeliveriesProjection.apply(event, collection);
  const doc = async (n: StoredNotification) => (await collection.get(deliveryIdOf(n))) as DeliveryDoc | undefined;
  const listed = async (accountId: string) => (await collection.find({ index: DELIVERIES_BY_ACCOUNT, equals: [accountId], direction: 'desc' })).items.map((item) => item.id);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'webhook-deliveries-'));
    store = await EmbeddedReadStore.open(dir);
    collection = await store.collection<WebhookDeliveriesDoc>(collectionName(webhookDeliveriesProjection), webhookDeliveriesProjection.indexes);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('folds attempts into one document per delivery; the same event twice changes nothing', async () => {
    const n = sealed(notification('acct_1', 'e1'));
    const first = recorded(attempted(n, 1, '2026-11-22T09:00:01.000Z', 500));
    await apply(first);
    await apply(recorded(attempted(n, 2, '2026-11-22T09:00:02.000Z', 200)));
    const before = await collection.getStored(deliveryIdOf(n));
    await apply(first);
    expect(await collection.getStored(deliveryIdOf(n))).toEqual(before);
    expect(before?.doc).toMatchObject({
      account_id: 'acct_1',
      customer_hash: 'hash-of-cust-1',
      legacy_customer_id: null,
      notification: n,
      status: 'delivered',
      attempt_count: 2,
      created_at: '2026-11-22T09:00:01.000Z',
      event_timestamp: '2026-11-22T09:00:00.000Z',
      next_attempt_at: null,
      abandoned_reason: null,
    });
    expect((before?.doc as DeliveryDoc).attempts.map((attempt) => attempt.status_code)).toEqual([500, 200]);

    await apply(recorded({ type: 'WebhookRetryRequested', data: { delivery_id: deliveryIdOf(n), account_id: 'acct_1', requested_at: '2026-11-22T09:10:00.000Z' } }));
    expect((await doc(n))?.status).toBe('attempted');
  });

  it('says retries_exhausted when a failed attempt has no next one, and forgets it on a re-send request (issue #10, item 12c)', async () => {
    const n = sealed(notification('acct_x', 'e-exhausted'));
    await apply(recorded(attempted(n, 1, '2026-11-22T09:00:01.000Z', 500)));
    expect(await doc(n)).toMatchObject({ status: 'failed', abandoned_reason: null });
    await apply(recorded(attempted(n, 2, '2026-11-22T09:00:02.000Z', 503, null)));
    expect(await doc(n)).toMatchObject({ status: 'failed', next_attempt_at: null, abandoned_reason: 'retries_exhausted' });
    await apply(recorded({ type: 'WebhookRetryRequested', data: { delivery_id: deliveryIdOf(n), account_id: 'acct_x', requested_at: '2026-11-22T09:10:00.000Z' } }));
    expect(await doc(n)).toMatchObject({ status: 'attempted', abandoned_reason: null });
  });

  it("lists an account's deliveries newest first, by creation time, and no other account's", async () => {
    const older = sealed(notification('acct_2', 'old'));
    const newer = sealed(notification('acct_2', 'new'));
    await apply(recorded(attempted(older, 1, '2026-11-10T00:00:00.000Z', 200)));
    await apply(recorded(attempted(newer, 1, '2026-11-21T00:00:00.000Z', 200)));
    await apply(recorded(attempted(sealed(notification('acct_3', 'x')), 1, '2026-11-21T00:00:00.000Z', 200)));
    expect(await listed('acct_2')).toEqual([deliveryIdOf(newer), deliveryIdOf(older)]);
    const lastWeek = await collection.find({ index: DELIVERIES_BY_ACCOUNT, equals: ['acct_2'], range: { gte: '2026-11-15T00:00:00.000Z' }, direction: 'desc' });
    expect(lastWeek.items.map((item) => item.id)).toEqual([deliveryIdOf(newer)]);
  });

  it("erases every delivery naming the customer, whatever types the erasure lists, keeps other customers', and lets no later attempt or replay bring them back (issue #10, item 6; issue 47)", async () => {
    const drift = sealed(notification('acct_4', 'd1', 'gone'));
    const breach = sealed(notification('acct_4', 'g1', 'gone', 'geofence_breach'));
    const revoked = sealed(notification('acct_4', 'r1', 'gone', 'consent_revoked'));
    const otherCustomer = sealed(notification('acct_4', 'd2', 'stays'));
    const legacy = notification('acct_4', 'l1', 'gone');
    const driftAttempt = recorded(attempted(drift, 1, '2026-11-22T09:00:01.000Z', 500));
    for (const event of [driftAttempt, recorded(attempted(breach, 1, '2026-11-22T09:00:01.000Z', 200)), recorded(attempted(revoked, 1, '2026-11-22T09:00:01.000Z', 200))]) await apply(event);
    await apply(recorded(attempted(otherCustomer, 1, '2026-11-22T09:00:01.000Z', 200)));
    await apply(recorded(attempted(legacy, 1, '2026-11-22T09:00:01.000Z', 200)));
    expect(await doc(legacy)).toMatchObject({ customer_hash: null, legacy_customer_id: 'gone' });
    expect(await listed('acct_4')).toHaveLength(5);

    // An erasure as recorded before issue 47 lists drift and geofence_breach only: the consent_revoked delivery names the customer too, and goes.
    const erasure = recorded(erased('acct_4', 'gone', '2026-11-22T09:30:00.000Z', [deliveryIdOf(legacy)]));
    await apply(erasure);
    expect(await listed('acct_4')).toEqual([deliveryIdOf(otherCustomer)]);
    const after = await collection.getStored(deliveryIdOf(otherCustomer));

    // The same erasure again, a replayed attempt, an attempt that was under way, an abandonment for the erased data: nothing comes back.
    await apply(erasure);
    await apply(driftAttempt);
    await apply(recorded(attempted(drift, 2, '2026-11-22T09:31:00.000Z', 200)));
    await apply(recorded({ type: 'WebhookDeliveryAbandoned', data: { delivery_id: deliveryIdOf(breach), notification: breach, reason: 'data_erased', abandoned_at: '2026-11-22T09:32:00.000Z' } }));
    await apply(recorded(attempted(revoked, 2, '2026-11-22T09:33:00.000Z', 200)));
    expect(await listed('acct_4')).toEqual([deliveryIdOf(otherCustomer)]);
    expect(await collection.getStored(deliveryIdOf(otherCustomer))).toEqual(after);

    // A later drift of the same customer (granted again) is listed.
    const later = sealed(notification('acct_4', 'd3', 'gone', 'drift', '2026-11-23T08:00:00.000Z'));
    await apply(recorded(attempted(later, 1, '2026-11-23T08:00:01.000Z', 200)));
    expect(await listed('acct_4')).toContain(deliveryIdOf(later));
  });
});
