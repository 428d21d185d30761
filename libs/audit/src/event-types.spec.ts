import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import { verifyChain, type ApiAccessRecorded } from './domain/access-events.js';
import { auditEventTypes } from './event-types.js';

/** Stored JSON from schema version 1 must still read as today's shape (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/api-access-recorded.v1.json', import.meta.url));

describe('audit event types', () => {
  const registry = new EventRegistry().register(...auditEventTypes);

  it('registers every audit event type with a version', () => {
    expect(registry.version('ApiAccessRecorded')).toBe(1);
  });

  it('reads version-1 stored events into a chain that still verifies', () => {
    const chain = upcastStoredEvents<ApiAccessRecorded>(registry, stored, 'access_log-platform').map((event) => event.data);
    expect(chain.map((entry) => entry.request_id)).toEqual(['fixture-0', 'fixture-1']);
    expect(verifyChain(chain)).toMatchObject({ ok: true, entries: 2 });
  });
});
