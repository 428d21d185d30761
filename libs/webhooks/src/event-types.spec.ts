import { randomBytes } from 'node:crypto';
import { EventRegistry, SecretBox, type RecordedEvent } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents, type StoredEvent } from '../../../test/support/stored-events.js';
import { DELIVERY_ERASURE_EVENT_TYPES, deliveryErasureDecider, type DeliveryErasureEvent } from './domain/delivery-erasure.js';
import { DELIVERY_EVENT_TYPES, evolveDelivery, initialDeliveryState, type DeliveryEvent } from './domain/delivery.js';
import { evolveWebhook, initialWebhookState, WEBHOOK_EVENT_TYPE_NAMES, type WebhookEvent } from './domain/webhook.js';
import { webhooksEventTypes } from './event-types.js';
import { isSealed } from './domain/notification.js';
import { webhookSecretCodec } from './sealing/webhook-secret-codec.js';

/** Stored JSON of every schema version still in the log must fold into today's states (style.md: upcasters against fixtures). */
const v1 = readStoredEvents(new URL('./__fixtures__/webhook-events.v1.json', import.meta.url));
const v2 = readStoredEvents(new URL('./__fixtures__/webhook-events.v2.json', import.meta.url));

describe('webhooks event types', () => {
  const registry = new EventRegistry().register(...webhooksEventTypes);
  /** The events of a fixture's streams whose names start with `prefix`, each recorded in its own stream. */
  const upcast = <Event extends { type: string }>(stored: StoredEvent[], prefix: string) =>
    upcastStoredEvents<Event>(registry, stored.filter((event) => event.stream?.startsWith(prefix)));
  const all = [...WEBHOOK_EVENT_TYPE_NAMES, ...DELIVERY_EVENT_TYPES, ...DELIVERY_ERASURE_EVENT_TYPES];

  it('registers every stored event type of the context, and the fixtures hold every one at its current version', () => {
    for (const type of all) expect(registry.has(type)).toBe(true);
    expect(new Set([...v1, ...v2].map((event) => event.type))).toEqual(new Set(all));
    for (const type of all) {
      const newest = Math.max(...[...v1, ...v2].filter((event) => event.type === type).map((event) => Number(event.metadata.schema_version)));
      expect({ type, newest }).toEqual({ type, newest: registry.version(type) });
    }
  });

  it('reads version-1 webhook events through the secret codec: configured (a secret sealed under another key reads as null), then removed', () => {
    const session = webhookSecretCodec(SecretBox.fromKey(randomBytes(32))).session('webhook-acct_fixture');
    const opened = v1
      .filter((event) => event.stream === 'webhook-acct_fixture')
      .map((event, index) => session.open({ id: `e${index}`, streamName: 'webhook-acct_fixture', type: event.type, data: event.data, metadata: event.metadata, revision: BigInt(index), position: BigInt(index + 1), createdAt: new Date(0) }) as RecordedEvent)
      .map((event) => registry.upcast(event) as unknown as WebhookEvent);
    expect(evolveWebhook(initialWebhookState, opened[0])).toEqual({
      status: 'configured',
      url: 'https://hooks.example.com/in',
      secret: null,
      secret_length: 24,
      event_types: ['drift', 'consent_revoked'],
      configured_at: '2026-11-22T08:00:00.000Z',
    });
    expect(opened.reduce(evolveWebhook, initialWebhookState)).toEqual({ status: 'none' });
  });

  it('reads version-1 delivery events, their notification in the clear, into an abandoned delivery with one attempt', () => {
    const events = upcast<DeliveryEvent>(v1, 'webhook_delivery-');
    const state = events.reduce(evolveDelivery, initialDeliveryState);
    expect(state).toMatchObject({ status: 'abandoned', attempts: 1, notification: { customer_id: 'cust-1', stream: 'consent-acct_fixture:cust-1' } });
    expect(state.status !== 'none' && isSealed(state.notification)).toBe(false);
  });

  it('reads version-2 delivery events, their notification sealed, and the erasure record', () => {
    const state = upcast<DeliveryEvent>(v2, 'webhook_delivery-').reduce(evolveDelivery, initialDeliveryState);
    expect(state).toMatchObject({ status: 'abandoned', attempts: 1, notification: { customer_hash: '0123456789abcdef0123456789abcdef' } });
    expect(state.status !== 'none' && isSealed(state.notification)).toBe(true);
    const erasures = upcast<DeliveryErasureEvent>(v2, 'webhook_erasure-');
    expect(erasures.reduce(deliveryErasureDecider.evolve, deliveryErasureDecider.initialState)).toEqual({ erased_at: '2026-11-23T10:00:00.000Z' });
  });
});
