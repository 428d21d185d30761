import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EventRegistry, type RecordedEvent } from '../../platform/src/index.js';
import { CONSENT_EVENT_TYPES, evolveConsent, initialConsentState, type ConsentEvent } from './domain/consent.js';
import { monitoringEventTypes } from './event-types.js';

/** Stored JSON from schema version 1 must still fold into today's state (style.md: upcasters against fixtures). */
const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '__fixtures__/consent-events.v1.json'), 'utf8')) as {
  events: Array<{ type: string; metadata: Record<string, unknown>; data: Record<string, unknown> }>;
};

describe('monitoring event types', () => {
  const registry = new EventRegistry().register(...monitoringEventTypes);

  it('registers every consent event type with a version', () => {
    for (const type of CONSENT_EVENT_TYPES) expect(registry.version(type)).toBe(1);
  });

  it('reads version-1 stored consent events into a revoked consent', () => {
    const events = fixture.events.map((stored, index) => {
      const event = registry.upcast({
        id: `fixture-${index}`,
        streamName: 'consent-acct_fixture:cust-1',
        type: stored.type,
        data: stored.data,
        metadata: stored.metadata,
        revision: BigInt(index),
        position: BigInt(index + 1),
        createdAt: new Date(0),
      } satisfies RecordedEvent);
      return { type: event.type, data: event.data } as unknown as ConsentEvent;
    });
    expect(events.reduce(evolveConsent, initialConsentState)).toEqual({
      status: 'revoked',
      purpose: 'unspecified',
      scope: ['location'],
      granted_at: '2026-11-22T00:00:00.000Z',
      revoked_at: '2026-11-22T01:00:00.000Z',
    });
  });
});
