import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CommandPipeline, EmbeddedDataKeyVault, EmbeddedEventStore, EventRegistry, ReadModels, SecretBox, type EventStore } from '../../platform/src/index.js';
import { checkIn } from './commands/check-in/check-in.handler.js';
import { positionDecider, positionStream, type CheckIn } from './domain/position.js';
import { locatorEventTypes } from './event-types.js';
import { PositionSealing } from './public/position-sealing.js';

/** The check-in codec against the embedded event store and data-key vault, through the real pipeline. */
describe('position sealing (embedded store and vault)', () => {
  let dir: string;
  let events: EventStore;
  let vault: EmbeddedDataKeyVault;
  let sealing: PositionSealing;
  let pipeline: CommandPipeline;
  let now = new Date('2026-11-23T09:00:00.000Z');
  const reads: string[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'locator-sealing-'));
    const store = await EmbeddedEventStore.open(path.join(dir, 'events'));
    // Counts the reads a command makes, to show the fold starts from the last event.
    events = new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'readStream') return (stream: string, options?: { direction?: string }) => (reads.push(`${stream} ${options?.direction ?? 'forwards'}`), target.readStream(stream, options as never));
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    vault = await EmbeddedDataKeyVault.open(dir, SecretBox.fromKey(randomBytes(32)));
    const registry = new EventRegistry().register(...locatorEventTypes);
    sealing = new PositionSealing(vault, events, registry);
    pipeline = new CommandPipeline(events, registry, new ReadModels(), { now: () => now }, { waitMs: 100, resolve: (token) => (token === PositionSealing ? sealing : undefined) });
  });
  afterEach(async () => {
    await events.close();
    await vault.close();
  });

  const checkInAt = (lat: number, lng: number): CheckIn => ({ type: 'CheckIn', account_id: 'acct_owner', lat, lng, accuracy_m: 8 });
  const read = () => pipeline.read({ decider: positionDecider, inject: { sealing: PositionSealing }, codec: (deps: unknown) => (deps as { sealing: PositionSealing }).sealing.codec() }, positionStream('acct_owner'));

  it('stores only the account and the time in the clear; the position opens with the owner key', async () => {
    await pipeline.run(checkIn, checkInAt(5.6037123, -0.1870456));
    const [stored] = await events.readStream(positionStream('acct_owner'));
    expect(Object.keys(stored.data).sort()).toEqual(['account_id', 'checked_in_at', 'key_id', 'sealed']);
    expect(JSON.stringify(stored.data)).not.toMatch(/5\.6037|0\.1870|accuracy/);
    expect((await read()).state.last).toEqual({ lat: 5.6037123, lng: -0.1870456, accuracy_m: 8, checked_in_at: now.toISOString() });
  });

  it('folds from the last event only, however long the history', async () => {
    for (let index = 0; index < 30; index++) {
      now = new Date(now.getTime() + 60_000);
      await pipeline.run(checkIn, checkInAt(5 + index / 100, -0.2));
    }
    reads.length = 0;
    const { state, revision } = await read();
    expect(state.last).toMatchObject({ lat: 5.29, checked_in_at: now.toISOString() });
    expect(revision).toBe(29n);
    // One backwards read of the last event, then the (empty) rest after it.
    expect(reads).toEqual(['locator_position-acct_owner backwards', 'locator_position-acct_owner forwards']);
  });

  it('after the key is destroyed, nothing stored can be opened and the state is empty; a new check-in starts under a new key', async () => {
    await pipeline.run(checkIn, checkInAt(5.6, -0.18));
    const [before] = await events.readStream(positionStream('acct_owner'));
    await sealing.shred('acct_owner');
    expect(await sealing.open(before)).toBeUndefined();
    expect((await read()).state.last).toBeNull();
    await pipeline.run(checkIn, checkInAt(6.1, -0.1));
    const all = await events.readStream(positionStream('acct_owner'));
    expect(all[1].data.key_id).not.toBe(before.data.key_id);
    expect((await read()).state.last).toMatchObject({ lat: 6.1 });
  });

  it('never writes a coordinate in the clear anywhere under the data folder', async () => {
    await pipeline.run(checkIn, checkInAt(7.123456789, -1.987654321));
    await events.close();
    events = await EmbeddedEventStore.open(path.join(dir, 'events'));
    const files = (function walk(folder: string): string[] {
      return readdirSync(folder).flatMap((name) => {
        const file = path.join(folder, name);
        return statSync(file).isDirectory() ? walk(file) : [file];
      });
    })(dir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(file);
      expect(bytes.includes('7.123456789')).toBe(false);
      expect(bytes.includes('1.987654321')).toBe(false);
    }
  });
});
