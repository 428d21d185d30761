import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventRegistry } from '../apps/shared/runtime.js';
// A benchmark measures the declaration itself, so it reaches past the context's surface.
import { checkIn } from '../libs/locator/src/testing/benchmarked.js';
import { PositionSealing, positionDecider, positionStream, type CheckIn } from '../libs/locator/src/index.js';
import { CommandPipeline, EmbeddedDataKeyVault, EmbeddedEventStore, ReadModels, SecretBox, systemClock } from '../libs/platform/src/index.js';
import { drive } from './load.js';
import { toRow, type Check, type Row, type Sample, type Section } from './report.js';

/**
 * Partner-locator check-ins and position reads (docs/adr/0020), on the
 * embedded event store and data-key vault, against the raw store operation
 * each one rests on, measured in the same run:
 * - a check-in through the command pipeline (codec snapshot = one backwards
 *   read and an unseal, decide, AES-GCM seal, append) vs a raw append of one event;
 * - a viewer's position read (`CommandPipeline.read` through the codec) vs a
 *   raw backwards read of the stream's last event.
 * Every owner starts with `history` check-ins, so the figures show that the
 * cost does not grow with a stream's length.
 */
export interface LocatorBenchOptions {
  owners: number;
  history: number;
  clients: number;
  seconds: number;
  rounds: number;
  progress: (line: string) => void;
}

const READ = { decider: positionDecider, inject: { sealing: PositionSealing }, codec: (deps: unknown) => (deps as { sealing: PositionSealing }).sealing.codec() };

export async function runLocatorBench(options: LocatorBenchOptions): Promise<Section> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-locator-'));
  const registry = eventRegistry();
  const events = await EmbeddedEventStore.open(path.join(dir, 'events'));
  const vault = await EmbeddedDataKeyVault.open(dir, SecretBox.fromKey(Buffer.alloc(32, 9)));
  const sealing = new PositionSealing(vault, events, registry);
  const pipeline = new CommandPipeline(events, registry, new ReadModels(), systemClock, { waitMs: 1000, resolve: (token) => (token === PositionSealing ? sealing : undefined) });
  const owner = () => `acct_bench${Math.floor(Math.random() * options.owners)}`;
  const point = (account: string): CheckIn => ({ type: 'CheckIn', account_id: account, lat: 5.5 + Math.random() * 0.2, lng: -0.3 + Math.random() * 0.2, accuracy_m: 10 });
  const rows: Row[] = [];
  const checks: Check[] = [];
  let empty = 0;
  try {
    options.progress(`locator: ${options.owners} owners with ${options.history} check-ins each`);
    for (let start = 0; start < options.owners; start += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, options.owners - start) }, async (_, offset) => {
          for (let index = 0; index < options.history; index++) await pipeline.run(checkIn, point(`acct_bench${start + offset}`));
        }),
      );
    }
    const cases = {
      'raw append': async () => {
        const account = owner();
        await events.append(`${positionStream(account)}-raw`, [{ type: 'LocatorCheckedIn', data: { ...point(account) }, metadata: { schema_version: 1 } }], 'any');
        return 1;
      },
      'check-in': async () => {
        await pipeline.run(checkIn, point(owner()));
        return 1;
      },
      'raw last-event read': async () => {
        await events.readStream(positionStream(owner()), { direction: 'backwards', maxCount: 1 });
        return 1;
      },
      'position read': async () => {
        const { state } = await pipeline.read(READ, positionStream(owner()));
        if (!state.last) empty++;
        return 1;
      },
    } as const;
    const samples: Record<keyof typeof cases, Sample[]> = { 'raw append': [], 'check-in': [], 'raw last-event read': [], 'position read': [] };
    for (let round = 0; round < options.rounds; round++) {
      const order = (Object.keys(cases) as Array<keyof typeof cases>).slice();
      if (round % 2 === 1) order.reverse();
      for (const name of order) {
        await drive(options.clients, options.seconds / 5, cases[name]);
        const sample = await drive(options.clients, options.seconds, cases[name]);
        samples[name].push(sample);
        options.progress(`locator ${name}, round ${round + 1}/${options.rounds}: ${Math.round(sample.ops / sample.seconds)}/s`);
      }
    }
    const append = toRow('raw EventStore.append of one event', 'baseline', samples['raw append']);
    const read = toRow('raw backwards read of the last event', 'baseline', samples['raw last-event read']);
    rows.push(
      append,
      toRow(`check-in through the pipeline (seal; ${options.history}+ events per stream)`, 'ours', samples['check-in'], append),
      read,
      toRow('position read through the codec (unseal)', 'ours', samples['position read'], read),
    );
  } finally {
    await vault.close();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  }
  checks.push({ name: 'every read found a position', ok: empty === 0, detail: `${empty} reads without a position` });
  return {
    id: 'locator',
    title: `Partner locator check-ins and position reads vs raw store operations (${options.clients} clients, ${options.owners} owners)`,
    unit: 'operation',
    settings: { ...options, progress: undefined },
    rows,
    checks,
  };
}
