import { readFileSync } from 'node:fs';
import type { EventRegistry, RecordedEvent } from '../../libs/platform/src/index.js';

/**
 * Upcaster tests against stored-JSON fixtures (style.md, "Events and
 * aggregates"): a `__fixtures__/*.v1.json` file holds `{ "events": [...] }`
 * as an older schema version stored them; the spec folds what a reader sees
 * after upcasting into today's state. No test-runner globals here.
 */
export interface StoredEvent {
  /** The stream the event was stored in, when one fixture holds several streams. */
  stream?: string;
  type: string;
  metadata: Record<string, unknown>;
  data: Record<string, unknown>;
}

export function readStoredEvents(file: URL): StoredEvent[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { events: StoredEvent[] }).events;
}

/**
 * The stored events as a reader sees them: upcast through the registry, in
 * stored order, as `{ type, data }`. Each is recorded in `streamName`, or in
 * its own `stream` when no name is given.
 */
export function upcastStoredEvents<Event extends { type: string }>(registry: EventRegistry, stored: StoredEvent[], streamName?: string): Event[] {
  return stored.map((event, index) => {
    const stream = streamName ?? event.stream;
    if (stream === undefined) throw new Error(`stored event ${index} (${event.type}) names no stream and none was given`);
    const upcast = registry.upcast({
      id: `fixture-${index}`,
      streamName: stream,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
      revision: BigInt(index),
      position: BigInt(index + 1),
      createdAt: new Date(0),
    } satisfies RecordedEvent);
    return { type: upcast.type, data: upcast.data } as unknown as Event;
  });
}
