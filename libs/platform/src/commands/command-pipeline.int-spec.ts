import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventStore } from '../event-store/index.js';
import type { EventStore, NewEvent, RecordedEvent } from '../event-store/event-store.port.js';
import { EventRegistry } from '../events/event-registry.js';
import { TimeoutError } from '../errors.js';
import { command, type CommandDefinition } from './command.js';
import { ChangedConcurrentlyError, CommandPipeline } from './command-pipeline.js';
import type { Decider } from './decider.js';
import { ReadModels } from './read-models.js';
import type { StreamCodec } from './stream-codec.js';

type CounterEvent = { type: 'Counted'; data: { by: number; at: string } };
interface Add {
  id: string;
  by: number;
  /** Refuse to count past this total (a rule only the decider can check). */
  max?: number;
}
const counter: Decider<Add, number, CounterEvent> = {
  initialState: 0,
  evolve: (total, event) => total + event.data.by,
  decide: (command, total, now) => {
    if (command.max !== undefined && total + command.by > command.max) throw new Error(`over ${command.max}`);
    return command.by === 0 ? [] : [{ type: 'Counted', data: { by: command.by, at: now.toISOString() } }];
  },
};
const base = { name: 'test.add', stream: (c: Add) => `counter-${c.id}`, decider: counter };
const now = new Date('2026-11-23T10:00:00.000Z');

describe('CommandPipeline', () => {
  let events: EventStore;
  let registry: EventRegistry;
  let readModels: ReadModels;
  let resolved: Map<unknown, unknown>;
  let pipeline: CommandPipeline;

  beforeEach(async () => {
    events = await EmbeddedEventStore.open(mkdtempSync(path.join(tmpdir(), 'pipeline-')));
    // Version 2 renamed `amount` to `by`: stored version-1 events must be upcast after opening.
    registry = new EventRegistry().register({ type: 'Counted', version: 2, upcast: (data) => ({ by: data.amount, at: data.at }) });
    readModels = new ReadModels();
    resolved = new Map();
    pipeline = new CommandPipeline(events, registry, readModels, { now: () => now }, { waitMs: 50, resolve: (token) => resolved.get(token) });
  });
  afterEach(() => events.close());

  it('folds the stream (upcast), decides with the clock, stamps the schema version, appends with the expected revision', async () => {
    await events.append('counter-a', [{ type: 'Counted', data: { amount: 5, at: 'x' }, metadata: { schema_version: 1 } }], 'no_stream');
    const add = command({ ...base, onConflict: { retry: 0 } });
    const result = await pipeline.run(add, { id: 'a', by: 2 });
    expect(result).toMatchObject({ previous: 5, state: 7, revision: 1n, events: [{ type: 'Counted', data: { by: 2, at: now.toISOString() } }] });
    const [last] = await events.readStream('counter-a', { direction: 'backwards', maxCount: 1 });
    expect(last.metadata).toEqual({ schema_version: 2 });
    expect(last.position).toBe(result.position);
  });

  it('appends nothing when the decider decides nothing', async () => {
    const add = command({ ...base, onConflict: { retry: 0 } });
    const result = await pipeline.run(add, { id: 'b', by: 0 });
    expect(result).toMatchObject({ state: 0, events: [] });
    expect(result.position).toBeUndefined();
    expect(result.revision).toBeUndefined();
    await expect(events.readStream('counter-b')).rejects.toMatchObject({ code: 'STREAM_NOT_FOUND' });
  });

  /** Appends another event to the stream the first time `prepare` runs: the command's append then conflicts. */
  function racing(definition: Omit<CommandDefinition<Add, number, CounterEvent>, 'prepare'>): CommandDefinition<Add, number, CounterEvent> {
    let raced = false;
    return {
      ...definition,
      async prepare(input, loaded) {
        if (!raced) {
          raced = true;
          await events.append(definition.stream(input), [{ type: 'Counted', data: { by: 10, at: 'race' }, metadata: { schema_version: 2 } }], loaded.revision ?? 'no_stream');
        }
        return input;
      },
    };
  }

  it('retries a conflict by deciding again on the fresh state', async () => {
    const add = racing({ ...base, onConflict: { retry: 1 } });
    const result = await pipeline.run(add, { id: 'c', by: 1 });
    expect(result).toMatchObject({ previous: 10, state: 11 });
  });

  it('a retried decision follows the rules on the fresh state', async () => {
    const add = racing({ ...base, onConflict: { retry: 3 } });
    await expect(pipeline.run(add, { id: 'd', by: 1, max: 5 })).rejects.toThrow('over 5');
  });

  it('answers 409 CONCURRENCY_CONFLICT when the policy allows no retry', async () => {
    const add = racing({ ...base, onConflict: { retry: 0 } });
    const error = await pipeline.run(add, { id: 'e', by: 1 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ChangedConcurrentlyError);
    expect(error).toMatchObject({ code: 'CONCURRENCY_CONFLICT', status: 409 });
  });

  it('reads through the codec (open before upcast, snapshot first) and writes through it (seal after stamping)', async () => {
    const calls: string[] = [];
    const flip = (data: Record<string, unknown>) => Object.fromEntries(Object.entries(data).map(([key, value]) => [key.split('').reverse().join(''), value]));
    // "Sealing" reverses every field name; an upcaster seeing sealed data would find no `amount`.
    const codec: StreamCodec<number> = {
      session: () => ({
        snapshot: async () => {
          calls.push('snapshot');
          return { state: 100, revision: 0n };
        },
        open: (event: RecordedEvent) => {
          calls.push(`open ${event.revision}`);
          return { ...event, data: flip(event.data) };
        },
        seal: (event: NewEvent) => {
          calls.push(`seal v${String(event.metadata?.schema_version)}`);
          return { ...event, data: flip(event.data) };
        },
        appended: async ({ state }) => {
          calls.push(`appended ${state}`);
        },
      }),
    };
    // Revision 0 is covered by the snapshot (100); revision 1 is a sealed version-1 event.
    await events.append('counter-f', [{ type: 'Counted', data: { ignored: true } }], 'no_stream');
    await events.append('counter-f', [{ type: 'Counted', data: flip({ amount: 3, at: 'x' }), metadata: { schema_version: 1 } }], 0n);
    const add = command({ ...base, codec: () => codec, onConflict: { retry: 0 } });
    const result = await pipeline.run(add, { id: 'f', by: 1 });
    expect(result).toMatchObject({ previous: 103, state: 104 });
    expect(calls).toEqual(['snapshot', 'open 1', 'seal v2', 'appended 104']);
    const [stored] = await events.readStream('counter-f', { fromRevision: 2n });
    expect(stored.data).toEqual(flip({ by: 1, at: now.toISOString() }));
  });

  it('resolves injected dependencies once and hands them to prepare and the codec', async () => {
    const limits = { max: 2 };
    resolved.set('LIMITS', limits);
    let codecs = 0;
    const add = command<Add, number, CounterEvent, { limits: { max: number } }>({
      ...base,
      inject: { limits: 'LIMITS' },
      codec: () => {
        codecs++;
        return { session: () => ({ open: (event) => event, seal: (event) => event }) };
      },
      prepare: async (input, _loaded, { limits: found }) => ({ ...input, max: found.max }),
      onConflict: { retry: 0 },
    });
    // The result carries the command as decided, after prepare.
    expect((await pipeline.run(add, { id: 'g', by: 2 })).command).toEqual({ id: 'g', by: 2, max: 2 });
    await expect(pipeline.run(add, { id: 'g', by: 1 })).rejects.toThrow('over 2');
    expect(codecs).toBe(1);
  });

  it('waits for the read models it names: 504 TIMEOUT when one is late, unless declared soft', async () => {
    let reached = 0n;
    readModels.register('totals', { waitFor: async (position, timeoutMs) => {
      if (reached >= position) return;
      await new Promise((resolve) => setTimeout(resolve, timeoutMs));
      throw new TimeoutError('late');
    } });
    const strict = command({ ...base, onConflict: { retry: 0 }, awaits: ['totals'] });
    const soft = command({ ...base, name: 'test.soft', onConflict: { retry: 0 }, awaits: [{ readModel: 'totals', soft: true }] });
    // Issue 31: the 504 says the write was stored (and where), so a client reads again instead of sending it twice.
    const late = pipeline.run(strict, { id: 'h', by: 1 });
    await expect(late).rejects.toMatchObject({ code: 'TIMEOUT', status: 504, details: { stored: true, read_model: 'totals', position: expect.any(String) } });
    await expect(late).rejects.toThrow(/stored/);
    // The write was stored all the same.
    expect((await events.readStream('counter-h')).length).toBe(1);
    await expect(pipeline.run(soft, { id: 'h', by: 1 })).resolves.toMatchObject({ state: 2 });
    reached = 1000n;
    await expect(pipeline.run(strict, { id: 'h', by: 1 })).resolves.toMatchObject({ state: 3 });
  });
});
