import type { EventStore, RecordedEvent } from '../event-store/event-store.port.js';
import { EventRegistry } from '../events/event-registry.js';
import type { IntegrationMessage, IntegrationPublisher } from '../integration/integration-bus.port.js';
import { JsonLogger } from '../logging/json-logger.js';
import type { ReadStore } from '../read-store/read-store.port.js';
import { IntegrationRelay } from './integration-relay.js';

/**
 * The relay's buffer against its follower's sink calls, driven directly (the
 * follower is not started): a reset (the follower restarting from its
 * checkpoint) while a batch is being published must not cost the events that
 * arrive after it. Before the fix the finished publish trimmed the batch's
 * length off the new buffer, so those events were never published, and the
 * checkpoint later moved past them (test/topology/ saw one such event).
 */
const event = (position: number): RecordedEvent => ({
  id: `e${position}`,
  streamName: `things-${position}`,
  type: 'ThingHappened',
  data: {},
  metadata: {},
  revision: 0n,
  position: BigInt(position),
  createdAt: new Date(0),
});

class HeldPublisher implements IntegrationPublisher {
  readonly batches: string[][] = [];
  private release?: () => void;
  hold = false;
  async publish(messages: IntegrationMessage[]): Promise<void> {
    this.batches.push(messages.map((message) => (JSON.parse(message.value) as { id: string }).id));
    if (this.hold) await new Promise<void>((resolve) => (this.release = resolve));
  }
  finish(): void {
    this.release?.();
  }
  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}

describe('IntegrationRelay buffer', () => {
  const relayWith = (publisher: IntegrationPublisher) => new IntegrationRelay({} as EventStore, {} as ReadStore, publisher, 'test', new EventRegistry(), new JsonLogger('silent'));

  it('publishes, after a reset during a publish in flight, every event handed on after the reset', async () => {
    const publisher = new HeldPublisher();
    const sink = relayWith(publisher).logFollower.spec.sink;
    await sink.handle(event(1));
    await sink.handle(event(2));
    publisher.hold = true;
    const inFlight = sink.flush!();
    // The follower restarts: its sink drops what it had not flushed, and the new subscription hands events on again.
    sink.reset!();
    await sink.handle(event(2));
    await sink.handle(event(3));
    publisher.hold = false;
    publisher.finish();
    await inFlight;
    await sink.flush!();
    expect(publisher.batches).toEqual([
      ['e1', 'e2'],
      ['e2', 'e3'],
    ]);
  });

  it('keeps what arrived during a publish for the next one, without a reset', async () => {
    const publisher = new HeldPublisher();
    const sink = relayWith(publisher).logFollower.spec.sink;
    await sink.handle(event(1));
    publisher.hold = true;
    const inFlight = sink.flush!();
    await sink.handle(event(2));
    publisher.hold = false;
    publisher.finish();
    await inFlight;
    await sink.flush!();
    expect(publisher.batches).toEqual([['e1'], ['e2']]);
  });
});
