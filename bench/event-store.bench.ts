import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { accessStream, link, type AccessEntry } from '../libs/audit/src/index.js';
import { ConcurrencyError, EmbeddedEventStore, WRITTEN_BY_SEVERAL_PROCESSES, type ExpectedRevision } from '../libs/platform/src/index.js';
import { toRow, type Check, type Row, type Sample, type Section } from './report.js';

/**
 * Embedded event store appends against lmdb-js itself, in the same run.
 *
 * Every write here is durable before it counts: the raw baseline awaits the
 * put and then `flushed`, exactly what EmbeddedEventStore.append does per
 * append (commit, then fsync), on an environment opened with the same options. The two differ in what one operation writes:
 * the raw put is one JSON value; an append is, in one transaction callback, a
 * stream-record read and the expected-revision check, then the event, its
 * [stream, revision] index entry, the stream record and the head position.
 *
 * Like is compared with like: C concurrent writers each looping "write, wait
 * until durable" against C concurrent raw loops doing the same. A burst of
 * puts with one flush at the end is shown as the engine's ceiling.
 */

export interface EventStoreBenchOptions {
  /** Measured seconds per case and round (after a warm-up of a fifth of that). */
  seconds: number;
  /** Rounds alternate the order raw/ours so slow drift of the machine hits both sides alike. */
  rounds: number;
  /** Concurrent writers of the concurrent cases. */
  writers: number[];
  burstSize: number;
  progress: (line: string) => void;
}

/** An access event as the audit trail stores it: the realistic event of this system. */
const TEMPLATE = link(
  [
    {
      account_id: null,
      key_prefix: 'k3y_9f2a',
      principal_kind: 'admin',
      method: 'GET',
      path: '/v2/addresses/lookup',
      status: 200,
      client_ip: '203.0.113.7',
      at: new Date(0).toISOString(),
      request_id: randomUUID(),
    } satisfies AccessEntry,
  ],
  undefined,
)[0];
const EVENT_TYPE = TEMPLATE.type;
const METADATA = { schema_version: 1 };

/** The same JSON the embedded store writes for one event, so both sides write values of equal size. */
function rawValue(position: number): Record<string, unknown> {
  return {
    id: randomUUID(),
    stream: accessStream(null),
    type: EVENT_TYPE,
    revision: position,
    data: { ...TEMPLATE.data, request_id: randomUUID() },
    metadata: METADATA,
    createdAt: Date.now(),
  };
}

interface Subject {
  /** One durable write by writer `writer`. */
  write(writer: number): Promise<void>;
  close(): Promise<void>;
}

async function openRaw(dir: string): Promise<Subject> {
  // The embedded store keeps JSON values too (lmdb-js's default would be msgpack), and opens its
  // environment as several processes may write it: each commit synced before the next starts (ADR 0046).
  const db = open<Record<string, unknown>, number>({ path: dir, encoding: 'json', ...WRITTEN_BY_SEVERAL_PROCESSES });
  let key = 0;
  return {
    async write() {
      key += 1;
      await db.put(key, rawValue(key));
      await db.flushed;
    },
    close: () => db.close(),
  };
}

async function openOurs(dir: string, conflicts: { count: number }): Promise<Subject> {
  const store = await EmbeddedEventStore.open(dir);
  const expected: ExpectedRevision[] = [];
  return {
    async write(writer) {
      const revision = expected[writer] ?? 'no_stream';
      try {
        const result = await store.append(
          `bench-writer_${writer}`,
          [{ type: EVENT_TYPE, data: { ...TEMPLATE.data, request_id: randomUUID() }, metadata: METADATA }],
          revision,
        );
        expected[writer] = result.nextExpectedRevision;
      } catch (error) {
        // Each writer owns its stream, so a conflict would be a bug in the store: count it, fail the check.
        if (!(error instanceof ConcurrencyError)) throw error;
        conflicts.count += 1;
        expected[writer] = 'any';
      }
    },
    close: () => store.close(),
  };
}

/** `writers` loops, each doing one durable write at a time until the deadline. */
async function drive(subject: Subject, writers: number, seconds: number): Promise<Sample> {
  const latenciesMs: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      while (performance.now() < deadline) {
        const begun = performance.now();
        await subject.write(writer);
        latenciesMs.push(performance.now() - begun);
      }
    }),
  );
  return { ops: latenciesMs.length, seconds: (performance.now() - started) / 1000, latenciesMs };
}

/** Bursts of `size` puts issued together, then one flush: what group commit can reach at best. */
async function burst(dir: string, size: number, seconds: number): Promise<Sample> {
  const db = open<Record<string, unknown>, number>({ path: dir, encoding: 'json' });
  let key = 0;
  const once = async () => {
    const puts: Promise<boolean>[] = [];
    for (let i = 0; i < size; i++) {
      key += 1;
      puts.push(db.put(key, rawValue(key)));
    }
    await Promise.all(puts);
    await db.flushed;
  };
  try {
    const warmUntil = performance.now() + (seconds * 1000) / 5;
    while (performance.now() < warmUntil) await once();
    let ops = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;
    while (performance.now() < deadline) {
      await once();
      ops += size;
    }
    // Latency is not per put here (every put of a burst waits for the whole burst), so none is reported.
    return { ops, seconds: (performance.now() - started) / 1000, latenciesMs: [] };
  } finally {
    await db.close();
  }
}

async function measure(openSubject: (dir: string) => Promise<Subject>, writers: number, seconds: number): Promise<Sample> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-events-'));
  const subject = await openSubject(dir);
  try {
    await drive(subject, writers, seconds / 5);
    return await drive(subject, writers, seconds);
  } finally {
    await subject.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runEventStoreBench(options: EventStoreBenchOptions): Promise<Section> {
  const conflicts = { count: 0 };
  const sides = {
    raw: (dir: string) => openRaw(dir),
    ours: (dir: string) => openOurs(dir, conflicts),
  };
  const cases = [1, ...options.writers];
  const label = (writers: number) => (writers === 1 ? 'sequential (1 writer)' : `${writers} concurrent writers`);
  const rows: Row[] = [];

  for (const writers of cases) {
    const samples: Record<keyof typeof sides, Sample[]> = { raw: [], ours: [] };
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? (['raw', 'ours'] as const) : (['ours', 'raw'] as const);
      for (const side of order) {
        const sample = await measure(sides[side], writers, options.seconds);
        samples[side].push(sample);
        options.progress(`event-store ${label(writers)}, ${side}, round ${round + 1}/${options.rounds}: ${Math.round(sample.ops / sample.seconds)} writes/s`);
      }
    }
    const baseline = toRow(`raw lmdb put+flushed, ${label(writers)}`, 'baseline', samples.raw);
    rows.push(baseline, toRow(`EmbeddedEventStore.append, ${label(writers)}`, 'ours', samples.ours, baseline));
  }

  const bursts: Sample[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-burst-'));
    try {
      bursts.push(await burst(dir, options.burstSize, options.seconds));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const last = bursts[bursts.length - 1];
    options.progress(`event-store raw burst of ${options.burstSize}, round ${round + 1}/${options.rounds}: ${Math.round(last.ops / last.seconds)} writes/s`);
  }
  rows.push(toRow(`raw lmdb burst: ${options.burstSize} puts, 1 flush`, 'reference', bursts, undefined, 'engine ceiling'));

  const checks: Check[] = [
    {
      name: 'no concurrency conflicts',
      ok: conflicts.count === 0,
      detail: conflicts.count === 0 ? 'every append with its expected revision succeeded' : `${conflicts.count} appends on single-writer streams were refused`,
    },
  ];
  return {
    id: 'event-store',
    title: `Embedded event store vs raw lmdb-js (durable writes; ratio = ours ÷ raw with the same number of writers)`,
    unit: 'write',
    settings: {
      seconds_per_round: options.seconds,
      rounds: options.rounds,
      writers: cases,
      burst_size: options.burstSize,
      value_bytes: Buffer.byteLength(JSON.stringify(rawValue(1))),
      temp_dir: tmpdir(),
    },
    rows,
    checks,
  };
}
