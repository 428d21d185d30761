import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EventRegistry, type RecordedEvent } from '../../platform/src/index.js';
import { verifyChain, type ApiAccessRecorded } from './domain/access-events.js';
import { auditEventTypes } from './event-types.js';

/** Stored JSON from schema version 1 must still read as today's shape (style.md: upcasters against fixtures). */
const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '__fixtures__/api-access-recorded.v1.json'), 'utf8')) as {
  events: Array<{ type: string; metadata: Record<string, unknown>; data: Record<string, unknown> }>;
};

describe('audit event types', () => {
  const registry = new EventRegistry().register(...auditEventTypes);

  it('registers every audit event type with a version', () => {
    expect(registry.version('ApiAccessRecorded')).toBe(1);
  });

  it('reads version-1 stored events into a chain that still verifies', () => {
    const upcast = fixture.events.map((stored, index) =>
      registry.upcast({
        id: `fixture-${index}`,
        streamName: 'access_log-platform',
        type: stored.type,
        data: stored.data,
        metadata: stored.metadata,
        revision: BigInt(index),
        position: BigInt(index + 1),
        createdAt: new Date(0),
      } satisfies RecordedEvent),
    );
    const chain = upcast.map((event) => event.data as unknown as ApiAccessRecorded['data']);
    expect(chain.map((entry) => entry.request_id)).toEqual(['fixture-0', 'fixture-1']);
    expect(verifyChain(chain)).toMatchObject({ ok: true, entries: 2 });
  });
});
