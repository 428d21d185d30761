import { StreamNotFoundError } from './errors.js';
import type { EventStore, RecordedEvent } from './event-store.port.js';

/**
 * The event stored at `revision` of `stream` if it is still the one with
 * `id`; undefined when the stream or the event is gone (an erasure deletes
 * streams) or another event stands there. What a notification source reads
 * back at each webhook attempt (its `payloadOf`): the event as stored, not
 * opened or upcast, which stay the source's.
 */
export async function storedEventAt(events: EventStore, at: { stream: string; revision: string | bigint; event_id: string }): Promise<RecordedEvent | undefined> {
  let stored: RecordedEvent | undefined;
  try {
    [stored] = await events.readStream(at.stream, { fromRevision: BigInt(at.revision), maxCount: 1 });
  } catch (error) {
    if (error instanceof StreamNotFoundError) return undefined;
    throw error;
  }
  return stored && stored.id === at.event_id ? stored : undefined;
}
