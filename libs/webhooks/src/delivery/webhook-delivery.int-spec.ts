import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Notification, NotificationSource, WebhookEventType } from '../../../monitoring/src/index.js';
import {
  EmbeddedJobQueue,
  EventRegistry,
  openEventStore,
  openReadStore,
  SecretBox,
  type EventStore,
  type Job,
  type ReadStore,
  type RecordedEvent,
} from '../../../platform/src/index.js';
import { deliveryIdOf, DeliveryNotFoundError } from '../domain/delivery.js';
import { webhooksEventTypes } from '../event-types.js';
import type { HostResolver } from '../outbound/host-resolver.js';
import { UrlGuard } from '../outbound/url-guard.js';
import { WebhookTransport } from '../outbound/webhook-transport.js';
import { Webhooks } from '../webhooks.js';
import { Deliveries } from './deliveries.js';
import { DeliveryAttemptFailedError, DeliveryProcessor } from './delivery-processor.js';
import { FAN_OUT_CHECKPOINT, WebhookFanOut } from './fan-out.js';
import { WEBHOOK_QUEUE, WebhookJobs } from './webhook-jobs.js';

/**
 * A notification source that plays the monitoring context: `thing-` streams,
 * `ThingHappened` events naming the account, customer and webhook event type;
 * a customer in `erased` has no payload any more.
 */
class FakeSource implements NotificationSource {
  readonly streamPrefixes = ['thing-'];
  readonly erased = new Set<string>();
  notificationOf(event: RecordedEvent): Notification | undefined {
    if (event.type !== 'ThingHappened') return undefined;
    const data = event.data as { account_id: string; customer_id: string; kind: WebhookEventType; at: string };
    return {
      account_id: data.account_id,
      customer_id: data.customer_id,
      event_type: data.kind,
      occurred_at: data.at,
      stream: event.streamName,
      revision: event.revision.toString(),
      event_id: event.id,
    };
  }
  async payloadOf(notification: Notification): Promise<Record<string, unknown> | undefined> {
    if (this.erased.has(notification.customer_id)) return undefined;
    return { event: notification.event_type, customer_id: notification.customer_id, timestamp: notification.occurred_at };
  }
}

const noDns: HostResolver = { resolve: async () => [] };
const silent = { warn: () => undefined, error: () => undefined };
const SECRET = 'whsec_test_secret_0123456789';
const DELAYS = [0, 60_000, 120_000];

describe('webhook fan-out and delivery', () => {
  let dir: string;
  let events: EventStore;
  let readStore: ReadStore;
  let queue: EmbeddedJobQueue;
  let webhooks: Webhooks;
  let jobs: WebhookJobs;
  let deliveries: Deliveries;
  let processor: DeliveryProcessor;
  const source = new FakeSource();
  const registry = new EventRegistry().register(...webhooksEventTypes, { type: 'ThingHappened', version: 1 });
  const clock = { now: () => new Date('2026-11-22T10:00:00.000Z') };
  let server: http.Server;
  let url: string;
  const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  let statuses: number[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'webhook-delivery-'));
    events = await openEventStore({ dataDir: dir });
    readStore = await openReadStore({ dataDir: dir, mongodbDatabase: 'unused' });
    queue = await EmbeddedJobQueue.open(path.join(dir, 'queue'));
    const guard = new UrlGuard(noDns, true);
    webhooks = new Webhooks(events, registry, clock, SecretBox.fromKey(randomBytes(32)), guard);
    jobs = new WebhookJobs(queue, DELAYS);
    deliveries = new Deliveries(events, registry, clock, webhooks, jobs);
    processor = new DeliveryProcessor(webhooks, deliveries, source, new WebhookTransport(guard, 2000), jobs, clock, silent);
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        response.writeHead(statuses.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await queue.close();
    await readStore.close();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    received.length = 0;
    statuses = [];
  });

  async function happen(accountId: string, customerId: string, kind: WebhookEventType): Promise<Notification> {
    const stream = `thing-${accountId}:${customerId}`;
    await events.append(stream, [{ type: 'ThingHappened', data: { account_id: accountId, customer_id: customerId, kind, at: '2026-11-22T09:59:00.000Z' } }], 'any');
    const stored = await events.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return source.notificationOf(stored[0]) as Notification;
  }
  const job = (notification: Notification, attemptsMade = 0): Job<Notification> => ({ id: 'j', queue: WEBHOOK_QUEUE, name: 'deliver', data: notification, attemptsMade });

  it('queues one job per subscribed notification, none for others, and none again after a replay', async () => {
    await webhooks.configure('acct_a', { url, secret: SECRET, event_types: ['drift'] });
    await webhooks.configure('acct_b', { url, secret: SECRET, event_types: ['consent_revoked'] });
    const a1 = await happen('acct_a', 'c1', 'drift');
    const a2 = await happen('acct_a', 'c2', 'drift');
    const b1 = await happen('acct_b', 'c1', 'drift');
    const c1 = await happen('acct_c', 'c1', 'drift');
    await events.append('other-stream', [{ type: 'ThingHappened', data: { account_id: 'acct_a', customer_id: 'x', kind: 'drift', at: '' } }], 'any');

    const fanOut = new WebhookFanOut(events, readStore, registry, source, webhooks, jobs, silent);
    await fanOut.start();
    const last = (await events.readStream(c1.stream))[0].position;
    for (let i = 0; i < 200 && fanOut.handledPosition < last; i++) await new Promise((r) => setTimeout(r, 10));
    await fanOut.stop();
    expect(await readStore.getCheckpoint(FAN_OUT_CHECKPOINT)).toBeGreaterThanOrEqual(last);

    const queued = async (n: Notification) => queue.getJob<Notification>(WEBHOOK_QUEUE, `deliver.${deliveryIdOf(n)}`);
    expect((await queued(a1))?.data).toEqual(a1);
    expect(await queued(a2)).toBeDefined();
    expect(await queued(b1)).toBeUndefined();
    expect(await queued(c1)).toBeUndefined();

    // Replaying the whole log (a lost checkpoint) queues nothing twice: the job ids are taken.
    await readStore.deleteCheckpoint(FAN_OUT_CHECKPOINT);
    const adds: boolean[] = [];
    const counting = new WebhookJobs(
      { ...queue, add: async (...args: Parameters<EmbeddedJobQueue['add']>) => { const result = await queue.add(...args); adds.push(result.added); return result; } } as unknown as EmbeddedJobQueue,
      DELAYS,
    );
    const replay = new WebhookFanOut(events, readStore, registry, source, webhooks, counting, silent);
    await replay.start();
    for (let i = 0; i < 200 && adds.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    await replay.stop();
    expect(adds).toEqual([false, false]);
  });

  it('delivers with every header, both signatures valid, the payload timestamp being the event time', async () => {
    await webhooks.configure('acct_d', { url, secret: SECRET, event_types: ['drift', 'geofence_breach'] });
    const notification = await happen('acct_d', 'c1', 'geofence_breach');
    await processor.handle(job(notification), false);
    expect(received).toHaveLength(1);
    const [{ headers, body }] = received;
    expect(JSON.parse(body)).toEqual({ event: 'geofence_breach', customer_id: 'c1', timestamp: '2026-11-22T09:59:00.000Z' });
    expect(headers['x-webhook-event']).toBe('geofence_breach');
    expect(headers['x-webhook-timestamp']).toBe(String(Math.floor(clock.now().getTime() / 1000)));
    expect(headers['x-webhook-signature']).toBe(createHmac('sha256', SECRET).update(body).digest('hex'));
    expect(headers['x-webhook-signature-v2']).toBe(createHmac('sha256', SECRET).update(`${headers['x-webhook-timestamp']}.${body}`).digest('hex'));
    const state = await deliveries.state('acct_d', deliveryIdOf(notification));
    expect(state).toMatchObject({ status: 'delivered', attempts: 1 });
    const [attempted] = await events.readStream(`webhook_delivery-acct_d:${deliveryIdOf(notification)}`);
    expect(attempted.data).toMatchObject({ attempt_id: headers['x-webhook-delivery'], status_code: 200, outcome: 'delivered', manual: false });
    expect(JSON.stringify(attempted.data)).not.toContain(SECRET);

    // An automatic retry of a delivered delivery sends nothing.
    await processor.handle(job(notification, 1), false);
    expect(received).toHaveLength(1);
  });

  it('records failures with the next attempt time, throws so the queue retries, and none after the last', async () => {
    await webhooks.configure('acct_e', { url, secret: SECRET, event_types: ['drift'] });
    const notification = await happen('acct_e', 'c1', 'drift');
    statuses = [500, 503, 502, 500];
    await expect(processor.handle(job(notification, 0), false)).rejects.toBeInstanceOf(DeliveryAttemptFailedError);
    await expect(processor.handle(job(notification, 1), false)).rejects.toBeInstanceOf(DeliveryAttemptFailedError);
    await expect(processor.handle(job(notification, 3), false)).rejects.toBeInstanceOf(DeliveryAttemptFailedError);
    const recorded = await events.readStream(`webhook_delivery-acct_e:${deliveryIdOf(notification)}`);
    expect(recorded.map((event) => [event.data.attempt, event.data.status_code, event.data.next_attempt_at])).toEqual([
      [1, 500, '2026-11-22T10:00:00.000Z'],
      [2, 503, '2026-11-22T10:01:00.000Z'],
      [3, 502, null],
    ]);
    expect(new Set(received.map((request) => request.headers['x-webhook-delivery'])).size).toBe(3);
  });

  it('abandons without sending when the data was erased or the type is no longer subscribed', async () => {
    await webhooks.configure('acct_f', { url, secret: SECRET, event_types: ['drift'] });
    const erased = await happen('acct_f', 'gone', 'drift');
    source.erased.add('gone');
    await processor.handle(job(erased), false);
    expect(await deliveries.state('acct_f', deliveryIdOf(erased))).toMatchObject({ status: 'abandoned' });

    const unsubscribed = await happen('acct_f', 'c2', 'drift');
    await webhooks.configure('acct_f', { url, secret: SECRET, event_types: ['consent_revoked'] });
    await processor.handle(job(unsubscribed), false);
    const [abandoned] = await events.readStream(`webhook_delivery-acct_f:${deliveryIdOf(unsubscribed)}`);
    expect(abandoned).toMatchObject({ type: 'WebhookDeliveryAbandoned', data: { reason: 'not_subscribed' } });
    expect(received).toHaveLength(0);
  });

  it('queues a manual re-send for a known delivery of the same account only', async () => {
    await webhooks.configure('acct_g', { url, secret: SECRET, event_types: ['drift'] });
    const notification = await happen('acct_g', 'c1', 'drift');
    await processor.handle(job(notification), false);
    const id = deliveryIdOf(notification);
    await expect(deliveries.requestRetry('acct_h', id)).rejects.toBeInstanceOf(DeliveryNotFoundError);
    await expect(deliveries.requestRetry('acct_g', 'dlv_00000000000000000000000000000000')).rejects.toBeInstanceOf(DeliveryNotFoundError);
    await deliveries.requestRetry('acct_g', id);
    expect(await deliveries.state('acct_g', id)).toMatchObject({ status: 'attempted' });
    const queued = await queue.getJob<Notification>(WEBHOOK_QUEUE, `redeliver.${id}.1`);
    expect(queued).toMatchObject({ name: 'redeliver', data: notification });

    await processor.handle({ ...job(notification), name: 'redeliver' }, true);
    expect(received).toHaveLength(2);
    expect(await deliveries.state('acct_g', id)).toMatchObject({ status: 'delivered', attempts: 2 });
  });
});
