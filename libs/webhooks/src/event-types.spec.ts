import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EventRegistry, type RecordedEvent } from '../../platform/src/index.js';
import { DELIVERY_EVENT_TYPES, evolveDelivery, initialDeliveryState, type DeliveryEvent } from './domain/delivery.js';
import { evolveWebhook, initialWebhookState, WEBHOOK_EVENT_TYPE_NAMES, type WebhookEvent } from './domain/webhook.js';
import { webhooksEventTypes } from './event-types.js';

/** Stored JSON of schema version 1 must still fold into today's states (style.md: upcasters against fixtures). */
const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '__fixtures__/webhook-events.v1.json'), 'utf8')) as {
  events: Array<{ stream: string; type: string; metadata: Record<string, unknown>; data: Record<string, unknown> }>;
};

describe('webhooks event types', () => {
  const registry = new EventRegistry().register(...webhooksEventTypes);
  const upcast = (stream: string) =>
    fixture.events
      .filter((stored) => stored.stream.startsWith(stream))
      .map((stored, index) => {
        const event = registry.upcast({
          id: `fixture-${index}`,
          streamName: stored.stream,
          type: stored.type,
          data: stored.data,
          metadata: stored.metadata,
          revision: BigInt(index),
          position: BigInt(index + 1),
          createdAt: new Date(0),
        } satisfies RecordedEvent);
        return { type: event.type, data: event.data };
      });

  it('registers every stored event type of the context, each with a version', () => {
    for (const type of [...WEBHOOK_EVENT_TYPE_NAMES, ...DELIVERY_EVENT_TYPES]) expect(registry.version(type)).toBe(1);
    expect(new Set(fixture.events.map((event) => event.type))).toEqual(new Set([...WEBHOOK_EVENT_TYPE_NAMES, ...DELIVERY_EVENT_TYPES]));
  });

  it('reads version-1 webhook events: configured, then removed', () => {
    const events = upcast('webhook-') as unknown as WebhookEvent[];
    expect(evolveWebhook(initialWebhookState, events[0])).toMatchObject({ status: 'configured', event_types: ['drift', 'consent_revoked'], secret_length: 24 });
    expect(events.reduce(evolveWebhook, initialWebhookState)).toEqual({ status: 'none' });
  });

  it('reads version-1 delivery events into an abandoned delivery with one attempt', () => {
    const events = upcast('webhook_delivery-') as unknown as DeliveryEvent[];
    expect(events.reduce(evolveDelivery, initialDeliveryState)).toMatchObject({ status: 'abandoned', attempts: 1, notification: { customer_id: 'cust-1' } });
  });
});
