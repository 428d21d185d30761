import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { Test, type TestingModule } from '@nestjs/testing';
import {
  CommandPipeline,
  EVENT_STORE,
  READ_STORE,
  EmbeddedJobQueue,
  EventRegistry,
  openEventStore,
  openReadStore,
  ReadModels,
  SecretBox,
  type ContextManifest,
  type EventStore,
  type Job,
  type ReadStore,
  type RecordedEvent,
} from '../../../platform/src/index.js';
import { configureWebhook } from '../webhook-commands.js';
import { EraseDeliveriesHandler, EraseDeliveriesStepHandler } from '../commands/erase-deliveries/erase-deliveries.handler.js';
import { recordDeliveryAttempt, RecordDeliveryAttemptHandler } from '../commands/record-delivery-attempt/record-delivery-attempt.handler.js';
import { removeWebhook } from '../commands/remove-webhook/remove-webhook.handler.js';
import { RequestRetryHandler, RetryDeliveryCommand, RetryDeliveryHandler } from '../commands/retry-delivery/retry-delivery.handler.js';
import { deliveryIdOf, DeliveryNotFoundError, deliveryStream } from '../domain/delivery.js';
import { webhookStream, WebhookNotConfiguredError } from '../domain/webhook.js';
import { webhooksEventTypes } from '../event-types.js';
import { NotificationCipher } from '../notifications/notification-cipher.js';
import type { NotificationSource } from '../public/notification-source.js';
import { NotificationSources } from '../notifications/notification-sources.js';
import type { CustomerErasure, Notification, StoredNotification, WebhookEventType } from '../domain/notification.js';
import type { HostResolver } from '../outbound/host-resolver.js';
import { UrlGuard } from '../outbound/url-guard.js';
import { WebhookTransport } from '../outbound/webhook-transport.js';
import { CustomerErasures } from './customer-erasures.js';
import { DeliveryAttemptFailedError, DeliveryProcessor } from './delivery-processor.js';
import { FAN_OUT_CHECKPOINT, WebhookFanOut } from './fan-out.js';
import { WEBHOOK_QUEUE, WebhookJobs } from './webhook-jobs.js';

/**
 * A notification source that plays a context: `thing-` streams,
 * `ThingHappened` events naming the account, customer and webhook event type,
 * `ThingErased` erasing a customer's drift and geofence_breach notifications;
 * a customer in `erased` has no payload any more.
 */
class FakeSource implements NotificationSource {
  readonly streamPrefixes = ['thing-'];
  readonly erased = new Set<string>();
  /** When the source erased a customer (`<account>:<customer>`), as `erasedAt` answers it. */
  readonly erasures = new Map<string, string>();
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
  erasureOf(event: RecordedEvent): CustomerErasure | undefined {
    if (event.type !== 'ThingErased') return undefined;
    const data = event.data as { account_id: string; customer_id: string; at: string };
    return { account_id: data.account_id, customer_id: data.customer_id, erased_at: data.at, event_types: ['drift', 'geofence_breach'] };
  }
  async erasedAt(accountId: string, customerId: string): Promise<string | null> {
    return this.erasures.get(`${accountId}:${customerId}`) ?? null;
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
const SOURCE = Symbol('FakeSource');
const manifest = (notifies: WebhookEventType[]): ContextManifest => ({ name: 'things', events: [], notifications: [{ token: SOURCE, notifies, from: ['ThingHappened', 'ThingErased'] }] });

describe('webhook fan-out and delivery', () => {
  let dir: string;
  let events: EventStore;
  let readStore: ReadStore;
  let queue: EmbeddedJobQueue;
  let commands: CommandPipeline;
  let jobs: WebhookJobs;
  let cipher: NotificationCipher;
  let sources: NotificationSources;
  // The worker's commands go through a real CommandBus to the slices' handlers, as in the service.
  let nest: TestingModule;
  let bus: CommandBus;
  let processor: DeliveryProcessor;
  const source = new FakeSource();
  const registry = new EventRegistry().register(...webhooksEventTypes, { type: 'ThingHappened', version: 1 }, { type: 'ThingErased', version: 1 });
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
    const box = SecretBox.fromKey(randomBytes(32));
    const container = new Map<unknown, unknown>([[SecretBox, box], [UrlGuard, guard], [SOURCE, source]]);
    commands = new CommandPipeline(events, registry, new ReadModels(), clock, { waitMs: 1000, resolve: (token) => container.get(token) });
    container.set(CommandPipeline, commands);
    jobs = new WebhookJobs(queue, DELAYS);
    cipher = new NotificationCipher(box);
    container.set(NotificationCipher, cipher);
    sources = NotificationSources.fromManifests([manifest(['drift', 'geofence_breach', 'consent_revoked', 'delivery.confirmed', 'reverification.completed', 'job.completed'])], (token) => container.get(token));
    nest = await Test.createTestingModule({
      imports: [CqrsModule.forRoot()],
      providers: [
        { provide: CommandPipeline, useValue: commands },
        { provide: EVENT_STORE, useValue: events },
        { provide: READ_STORE, useValue: readStore },
        { provide: NotificationCipher, useValue: cipher },
        { provide: WebhookJobs, useValue: jobs },
        RecordDeliveryAttemptHandler,
        RequestRetryHandler,
        RetryDeliveryHandler,
        EraseDeliveriesStepHandler,
        EraseDeliveriesHandler,
      ],
    }).compile();
    await nest.init();
    bus = nest.get(CommandBus);
    processor = new DeliveryProcessor(bus, commands, sources, cipher, new WebhookTransport(guard, 2000), jobs, clock, silent, new CustomerErasures(commands, cipher, sources));
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
    await nest.close();
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

  const configure = (accountId: string, eventTypes: WebhookEventType[]) =>
    commands.run(configureWebhook, { type: 'ConfigureWebhook', account_id: accountId, url, secret: SECRET, event_types: eventTypes });
  async function happen(accountId: string, customerId: string, kind: WebhookEventType): Promise<Notification> {
    const stream = `thing-${accountId}:${customerId}`;
    await events.append(stream, [{ type: 'ThingHappened', data: { account_id: accountId, customer_id: customerId, kind, at: '2026-11-22T09:59:00.000Z' } }], 'any');
    const stored = await events.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return source.notificationOf(stored[0]) as Notification;
  }
  const job = (notification: StoredNotification, attemptsMade = 0): Job<StoredNotification> => ({ id: 'j', queue: WEBHOOK_QUEUE, name: 'deliver', data: notification, attemptsMade });
  const sealed = (notification: Notification) => cipher.seal(notification);
  const fanOut = (over: WebhookJobs = jobs) => new WebhookFanOut(events, readStore, registry, sources, commands, cipher, over, bus, silent);
  const retry = (accountId: string, deliveryId: string) => bus.execute(new RetryDeliveryCommand(accountId, deliveryId));
  const deliveryState = async (accountId: string, id: string) => (await commands.read(recordDeliveryAttempt, deliveryStream(accountId, id))).state;

  it('queues one sealed job per subscribed notification, none for others, and none again after a replay', async () => {
    await configure('acct_a', ['drift']);
    await configure('acct_b', ['consent_revoked']);
    const a1 = await happen('acct_a', 'customer-alpha', 'drift');
    const a2 = await happen('acct_a', 'customer-beta', 'drift');
    const b1 = await happen('acct_b', 'customer-alpha', 'drift');
    const c1 = await happen('acct_c', 'customer-alpha', 'drift');
    await events.append('other-stream', [{ type: 'ThingHappened', data: { account_id: 'acct_a', customer_id: 'x', kind: 'drift', at: '' } }], 'any');
    const last = (await events.readStream(c1.stream))[0].position;

    const first = fanOut();
    await first.start();
    await first.follower.waitFor(last, 2000);
    await first.stop();
    expect(await readStore.getCheckpoint(FAN_OUT_CHECKPOINT)).toBeGreaterThanOrEqual(last);

    const queued = async (n: Notification) => queue.getJob<StoredNotification>(WEBHOOK_QUEUE, `deliver.${deliveryIdOf(n)}`);
    const job1 = await queued(a1);
    // Issue #10, item 6: the queue holds the customer as a keyed hash, and the stream (which names the customer) sealed.
    expect(job1?.data).toEqual({ account_id: 'acct_a', event_type: 'drift', occurred_at: a1.occurred_at, event_id: a1.event_id, customer_hash: cipher.customerHash('acct_a', 'customer-alpha'), sealed: expect.any(String) });
    expect(JSON.stringify(job1?.data)).not.toContain('customer-alpha');
    expect(cipher.open(job1!.data)).toEqual(a1);
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
    const replay = fanOut(counting);
    await replay.start();
    await replay.follower.waitFor(last, 2000);
    await replay.stop();
    expect(adds).toEqual([false, false]);
  });

  it('delivers with every header, both signatures valid, the payload timestamp being the event time', async () => {
    await configure('acct_d', ['drift', 'geofence_breach']);
    const notification = await happen('acct_d', 'c1', 'geofence_breach');
    await processor.handle(job(sealed(notification)), false);
    expect(received).toHaveLength(1);
    const [{ headers, body }] = received;
    expect(JSON.parse(body)).toEqual({ event: 'geofence_breach', customer_id: 'c1', timestamp: '2026-11-22T09:59:00.000Z' });
    expect(headers['x-webhook-event']).toBe('geofence_breach');
    expect(headers['x-webhook-timestamp']).toBe(String(Math.floor(clock.now().getTime() / 1000)));
    expect(headers['x-webhook-signature']).toBe(createHmac('sha256', SECRET).update(body).digest('hex'));
    expect(headers['x-webhook-signature-v2']).toBe(createHmac('sha256', SECRET).update(`${headers['x-webhook-timestamp']}.${body}`).digest('hex'));
    expect(await deliveryState('acct_d', deliveryIdOf(notification))).toMatchObject({ status: 'delivered', attempts: 1 });
    const [attempted] = await events.readStream(deliveryStream('acct_d', deliveryIdOf(notification)));
    expect(attempted.data).toMatchObject({ attempt_id: headers['x-webhook-delivery'], status_code: 200, outcome: 'delivered', manual: false });
    expect(attempted.metadata).toEqual({ schema_version: 2 });
    expect(JSON.stringify(attempted.data)).not.toContain(SECRET);
    expect(JSON.stringify(attempted.data)).not.toContain(notification.stream);

    // An automatic retry of a delivered delivery sends nothing.
    await processor.handle(job(sealed(notification), 1), false);
    expect(received).toHaveLength(1);
  });

  it('still runs a job queued before schema version 2, its notification in the clear', async () => {
    await configure('acct_l', ['drift']);
    const notification = await happen('acct_l', 'c1', 'drift');
    await processor.handle(job(notification), false);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0].body)).toMatchObject({ customer_id: 'c1' });
  });

  it('records failures with the next attempt time, throws so the queue retries, and none after the last', async () => {
    await configure('acct_e', ['drift']);
    const notification = sealed(await happen('acct_e', 'c1', 'drift'));
    statuses = [500, 503, 502, 500];
    await expect(processor.handle(job(notification, 0), false)).rejects.toBeInstanceOf(DeliveryAttemptFailedError);
    await expect(processor.handle(job(notification, 1), false)).rejects.toBeInstanceOf(DeliveryAttemptFailedError);
    await expect(processor.handle(job(notification, 3), false)).rejects.toBeInstanceOf(DeliveryAttemptFailedError);
    const recorded = await events.readStream(deliveryStream('acct_e', deliveryIdOf(notification)));
    expect(recorded.map((event) => [event.data.attempt, event.data.status_code, event.data.next_attempt_at])).toEqual([
      [1, 500, '2026-11-22T10:00:00.000Z'],
      [2, 503, '2026-11-22T10:01:00.000Z'],
      [3, 502, null],
    ]);
    expect(new Set(received.map((request) => request.headers['x-webhook-delivery'])).size).toBe(3);
  });

  it('abandons without sending when the data was erased or the type is no longer subscribed', async () => {
    await configure('acct_f', ['drift']);
    const erased = sealed(await happen('acct_f', 'gone', 'drift'));
    source.erased.add('gone');
    await processor.handle(job(erased), false);
    expect(await deliveryState('acct_f', deliveryIdOf(erased))).toMatchObject({ status: 'abandoned' });

    const unsubscribed = sealed(await happen('acct_f', 'c2', 'drift'));
    await configure('acct_f', ['consent_revoked']);
    await processor.handle(job(unsubscribed), false);
    const [abandoned] = await events.readStream(deliveryStream('acct_f', deliveryIdOf(unsubscribed)));
    expect(abandoned).toMatchObject({ type: 'WebhookDeliveryAbandoned', data: { reason: 'not_subscribed' } });
    expect(received).toHaveLength(0);
  });

  it('queues a manual re-send for a known delivery of the same account only, with a configured webhook', async () => {
    await configure('acct_g', ['drift']);
    const notification = sealed(await happen('acct_g', 'c1', 'drift'));
    await processor.handle(job(notification), false);
    const id = deliveryIdOf(notification);
    await expect(retry('acct_h', id)).rejects.toBeInstanceOf(DeliveryNotFoundError);
    await expect(retry('acct_g', 'dlv_00000000000000000000000000000000')).rejects.toBeInstanceOf(DeliveryNotFoundError);
    const { requested_at } = await retry('acct_g', id);
    expect(requested_at).toBe(clock.now().toISOString());
    expect(await deliveryState('acct_g', id)).toMatchObject({ status: 'attempted' });
    const queued = await queue.getJob<StoredNotification>(WEBHOOK_QUEUE, `redeliver.${id}.1`);
    expect(queued).toMatchObject({ name: 'redeliver', data: notification });

    await processor.handle({ ...job(notification), name: 'redeliver' }, true);
    expect(received).toHaveLength(2);
    expect(await deliveryState('acct_g', id)).toMatchObject({ status: 'delivered', attempts: 2 });

    await commands.run(removeWebhook, { type: 'RemoveWebhook', account_id: 'acct_g' });
    await expect(retry('acct_g', id)).rejects.toBeInstanceOf(WebhookNotConfiguredError);
  });

  it('records an erasure a source reports under the keyed customer hash, once however often it is seen', async () => {
    const erasedAt = '2026-11-22T10:30:00.000Z';
    const appended = await events.append('thing-acct_k:c9', [{ type: 'ThingErased', data: { account_id: 'acct_k', customer_id: 'c9', at: erasedAt } }], 'any');
    await readStore.deleteCheckpoint(FAN_OUT_CHECKPOINT);
    for (let pass = 0; pass < 2; pass++) {
      const follower = fanOut();
      await follower.start();
      await follower.follower.waitFor(appended.position, 2000);
      await follower.stop();
      await readStore.deleteCheckpoint(FAN_OUT_CHECKPOINT);
    }
    const recorded = await events.readStream(`webhook_erasure-acct_k:${cipher.customerHash('acct_k', 'c9')}`);
    expect(recorded.map((event) => event.data)).toEqual([
      // Every type, not only those the source erased: every body names the customer (issue 47).
      { account_id: 'acct_k', customer_hash: cipher.customerHash('acct_k', 'c9'), event_types: ['drift', 'geofence_breach', 'delivery.confirmed', 'consent_revoked', 'reverification.completed', 'job.completed'], erased_at: erasedAt, legacy_delivery_ids: [] },
    ]);
  });

  it('sends nothing naming an erased customer, whatever the type: abandoned, its job gone, a manual re-send unknown (issue 47)', async () => {
    await configure('acct_m', ['consent_revoked', 'delivery.confirmed']);
    const revoked = sealed(await happen('acct_m', 'erased-one', 'consent_revoked'));
    const confirmed = sealed(await happen('acct_m', 'erased-one', 'delivery.confirmed'));
    const other = sealed(await happen('acct_m', 'kept-one', 'consent_revoked'));
    statuses = [500];
    await expect(processor.handle(job(revoked), false)).rejects.toBeInstanceOf(DeliveryAttemptFailedError);
    expect(received).toHaveLength(1);

    // The source erased the customer, the fan-out has not recorded it yet: the source's own word stops the retry and the queued job.
    source.erasures.set('acct_m:erased-one', '2026-11-22T10:30:00.000Z');
    await processor.handle(job(revoked, 1), false);
    const queued = await queue.add(WEBHOOK_QUEUE, 'deliver', confirmed, { jobId: `deliver.${deliveryIdOf(confirmed)}` });
    await processor.handle({ ...job(confirmed), id: queued.id }, false);
    expect(received).toHaveLength(1);
    expect(await queue.getJob(WEBHOOK_QUEUE, queued.id)).toBeUndefined();
    expect(await deliveryState('acct_m', deliveryIdOf(revoked))).toMatchObject({ status: 'abandoned' });
    expect((await events.readStream(deliveryStream('acct_m', deliveryIdOf(confirmed))))[0]).toMatchObject({ type: 'WebhookDeliveryAbandoned', data: { reason: 'data_erased' } });

    // Once the fan-out recorded the erasure, a manual re-send is refused like an unknown delivery, and a re-send job queued before sends nothing.
    const appended = await events.append('thing-acct_m:erased-one', [{ type: 'ThingErased', data: { account_id: 'acct_m', customer_id: 'erased-one', at: '2026-11-22T10:30:00.000Z' } }], 'any');
    const follower = fanOut();
    await follower.start();
    await follower.follower.waitFor(appended.position, 2000);
    await follower.stop();
    await expect(retry('acct_m', deliveryIdOf(revoked))).rejects.toBeInstanceOf(DeliveryNotFoundError);
    source.erasures.clear();
    await processor.handle({ ...job(revoked), name: 'redeliver' }, true);
    expect(received).toHaveLength(1);

    // Another customer's delivery goes out as before.
    await processor.handle(job(other), false);
    expect(received).toHaveLength(2);
    expect(JSON.parse(received[1].body)).toMatchObject({ event: 'consent_revoked', customer_id: 'kept-one' });
  });

  it('lets ten clients configure the same webhook at once: every one succeeds (issue #10, item 10)', async () => {
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => configure('acct_race', ['drift'])));
    expect(results.map((result) => result.status)).toEqual(Array(10).fill('fulfilled'));
    expect((await commands.read(configureWebhook, webhookStream('acct_race'))).state).toMatchObject({ status: 'configured', secret: SECRET, secret_length: SECRET.length });
  });
});

describe('notification sources from the manifests', () => {
  const source = new FakeSource();
  const resolve = (token: unknown) => (token === SOURCE ? source : undefined);

  it('refuses a webhook event type without a source, one with two, and a token that is no source', () => {
    expect(() => NotificationSources.fromManifests([manifest(['drift', 'consent_revoked', 'delivery.confirmed', 'reverification.completed'])], resolve)).toThrow(/geofence_breach has no notification source/);
    const twice: ContextManifest = { ...manifest(['drift']), name: 'others' };
    expect(() => NotificationSources.fromManifests([manifest(['drift', 'geofence_breach', 'consent_revoked', 'delivery.confirmed', 'reverification.completed']), twice], resolve)).toThrow(/drift has two sources: things and others/);
    expect(() => NotificationSources.fromManifests([manifest(['drift', 'geofence_breach', 'consent_revoked', 'delivery.confirmed', 'reverification.completed'])], () => ({}))).toThrow(/does not resolve to a NotificationSource/);
  });

  it('accepts one source per type', () => {
    const sources = NotificationSources.fromManifests([manifest(['drift', 'geofence_breach', 'consent_revoked', 'delivery.confirmed', 'reverification.completed', 'job.completed'])], resolve);
    expect(sources.sourceOf('drift')?.source).toBe(source);
    expect(sources.sourceOf('delivery.confirmed')?.source).toBe(source);
    expect(sources.streamPrefixes).toEqual(['thing-']);
    expect(sources.handles).toEqual(['ThingHappened', 'ThingErased']);
  });
});
