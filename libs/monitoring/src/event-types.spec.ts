import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import { CONSENT_EVENT_TYPES, evolveConsent, initialConsentState, type ConsentEvent } from './domain/consent.js';
import { monitoringEventTypes } from './event-types.js';

/** Stored JSON from schema version 1 must still fold into today's state (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/consent-events.v1.json', import.meta.url));

describe('monitoring event types', () => {
  const registry = new EventRegistry().register(...monitoringEventTypes);

  it('registers every consent event type with a version', () => {
    for (const type of CONSENT_EVENT_TYPES) expect(registry.version(type)).toBe(1);
  });

  it('reads version-1 stored consent events into a revoked consent', () => {
    const events = upcastStoredEvents<ConsentEvent>(registry, stored, 'consent-acct_fixture:cust-1');
    expect(events.reduce(evolveConsent, initialConsentState)).toEqual({
      status: 'revoked',
      purpose: 'unspecified',
      scope: ['location'],
      granted_at: '2026-11-22T00:00:00.000Z',
      revoked_at: '2026-11-22T01:00:00.000Z',
    });
  });
});
