import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import { DELIVERY_EVENT_TYPES, evolveDelivery, initialDeliveryState, type DeliveryEvent } from './domain/delivery.js';
import { evolveWebhook, initialWebhookState, WEBHOOK_EVENT_TYPE_NAMES, type WebhookEvent } from './domain/webhook.js';
import { webhooksEventTypes } from './event-types.js';

/** Stored JSON of schema version 1 must still fold into today's states (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/webhook-events.v1.json', import.meta.url));

describe('webhooks event types', () => {
  const registry = new EventRegistry().register(...webhooksEventTypes);
  /** The events of the fixture's streams whose names start with `prefix`, each recorded in its own stream. */
  const upcast = <Event extends { type: string }>(prefix: string) =>
    upcastStoredEvents<Event>(registry, stored.filter((event) => event.stream?.startsWith(prefix)));

  it('registers every stored event type of the context, each with a version', () => {
    for (const type of [...WEBHOOK_EVENT_TYPE_NAMES, ...DELIVERY_EVENT_TYPES]) expect(registry.version(type)).toBe(1);
    expect(new Set(stored.map((event) => event.type))).toEqual(new Set([...WEBHOOK_EVENT_TYPE_NAMES, ...DELIVERY_EVENT_TYPES]));
  });

  it('reads version-1 webhook events: configured, then removed', () => {
    const events = upcast<WebhookEvent>('webhook-');
    expect(evolveWebhook(initialWebhookState, events[0])).toMatchObject({ status: 'configured', event_types: ['drift', 'consent_revoked'], secret_length: 24 });
    expect(events.reduce(evolveWebhook, initialWebhookState)).toEqual({ status: 'none' });
  });

  it('reads version-1 delivery events into an abandoned delivery with one attempt', () => {
    const events = upcast<DeliveryEvent>('webhook_delivery-');
    expect(events.reduce(evolveDelivery, initialDeliveryState)).toMatchObject({ status: 'abandoned', attempts: 1, notification: { customer_id: 'cust-1' } });
  });
});
