import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventStore } from '../event-store/index.js';
import { EventRegistry } from './event-registry.js';
import { appendDecided, loadStream } from './event-stream.js';

type CounterEvent = { type: 'Counted'; data: { by: number } };
const evolve = (total: number, event: CounterEvent) => total + event.data.by;

describe('loadStream and appendDecided', () => {
  it('folds a stream, stamps schema versions, upcasts old events, and expects the loaded revision', async () => {
    const events = await EmbeddedEventStore.open(mkdtempSync(path.join(tmpdir(), 'event-stream-')));
    try {
      // Version 2 renamed `amount` to `by`; version-1 events are upcast on load.
      const registry = new EventRegistry().register({ type: 'Counted', version: 2, upcast: (data) => ({ by: data.amount }) });
      expect(await loadStream(events, registry, 'counter-a', evolve, 0)).toEqual({ state: 0 });
      await events.append('counter-a', [{ type: 'Counted', data: { amount: 5 }, metadata: { schema_version: 1 } }], 'no_stream');
      const loaded = await loadStream(events, registry, 'counter-a', evolve, 0);
      expect(loaded).toEqual({ state: 5, revision: 0n });

      await appendDecided(events, registry, 'counter-a', [{ type: 'Counted', data: { by: 2 } }], loaded.revision);
      const [last] = await events.readStream('counter-a', { direction: 'backwards', maxCount: 1 });
      expect(last.metadata).toEqual({ schema_version: 2 });
      expect((await loadStream(events, registry, 'counter-a', evolve, 0)).state).toBe(7);
      await expect(appendDecided(events, registry, 'counter-a', [{ type: 'Counted', data: { by: 1 } }], loaded.revision)).rejects.toMatchObject({ code: 'CONCURRENCY_CONFLICT' });
    } finally {
      await events.close();
    }
  });
});
