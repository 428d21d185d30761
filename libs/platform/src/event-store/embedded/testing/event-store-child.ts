/**
 * A child process for the embedded store's multi-process tests, run by
 * `spawnStoreChild` (see ./spawn-child.ts). It speaks a line protocol on stdout:
 *   ready                               the store is open
 *   ack <stream> <revision> <position>  an append resolved (so it must be durable)
 *   done <conflicts>                    `contend` finished
 *
 * Modes:
 *   append-forever <dir> <writers>      each writer appends 1–3 events at a time to its own
 *                                       stream until the process is killed
 *   append-one <dir> <stream>           appends one event to the end of <stream> and exits
 *   contend <dir> <stream> <writer> <count>
 *                                       appends <count> events to a stream another process
 *                                       also appends to, retrying on ConcurrencyError
 *   read <dir> <stream>                 prints `revision <revision> <position>` for each event
 *                                       of <stream>, as a process that never wrote sees it
 */
import { ConcurrencyError, StreamNotFoundError } from '../../errors.js';
import type { EventStore, ExpectedRevision } from '../../event-store.port.js';
import { EmbeddedEventStore } from '../embedded-event-store.js';

const [mode, dir, ...args] = process.argv.slice(2);

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function appendForever(store: EventStore, writers: number): Promise<never> {
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      const stream = `crash_writer${writer}-1`;
      let expected: ExpectedRevision = 'no_stream';
      for (let batch = 0; ; batch++) {
        const size = (batch % 3) + 1;
        const events = Array.from({ length: size }, (_, i) => ({ type: 'Tick', data: { writer, batch, i } }));
        const result = await store.append(stream, events, expected);
        say(`ack ${stream} ${result.nextExpectedRevision} ${result.position}`);
        expected = result.nextExpectedRevision;
      }
    }),
  );
  throw new Error('unreachable: writers never finish');
}

async function lastRevision(store: EventStore, stream: string): Promise<ExpectedRevision> {
  try {
    const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return last.revision;
  } catch (error) {
    if (error instanceof StreamNotFoundError) return 'no_stream';
    throw error;
  }
}

async function contend(store: EventStore, stream: string, writer: string, count: number): Promise<void> {
  let conflicts = 0;
  for (let seq = 0; seq < count; ) {
    const expected = await lastRevision(store, stream);
    try {
      const result = await store.append(stream, [{ type: 'Contended', data: { writer, seq, expected: String(expected) } }], expected);
      say(`ack ${stream} ${result.nextExpectedRevision} ${result.position}`);
      seq += 1;
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      conflicts += 1;
    }
  }
  say(`done ${conflicts}`);
}

const store = await EmbeddedEventStore.open(dir);
say('ready');
if (mode === 'append-forever') {
  await appendForever(store, Number(args[0]));
} else if (mode === 'append-one') {
  const result = await store.append(args[0], [{ type: 'FromAnotherProcess', data: {} }], await lastRevision(store, args[0]));
  say(`ack ${args[0]} ${result.nextExpectedRevision} ${result.position}`);
} else if (mode === 'contend') {
  await contend(store, args[0], args[1], Number(args[2]));
} else if (mode === 'read') {
  for (const event of await store.readStream(args[0])) say(`revision ${event.revision} ${event.position}`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
await store.close();
