import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { metricsRegistry } from '../metrics/metrics.js';
import { THREAD_IDLE, THREAD_NICENESS, ThreadPool, type BusyReason } from './thread-pool.js';

/**
 * The pool with real threads running scripted entries (plain JavaScript as
 * `data:` modules, so they load under jest; they speak serveThread's
 * protocol, thread-messages.ts), and in process. Each job `{ n, mode }`
 * answers `{ doubled: 2n, bytes }` (bytes a transferred Uint8Array of n);
 * `mode` says what the thread does with it. The compiled bulk hex-coding
 * entry, which calls serveThread itself, is tested in
 * libs/addressing/src/queries/bulk-hexcode/bulk-hexcode.pool.int-spec.ts.
 */
const SCRIPTED = `
import { parentPort, threadId } from 'node:worker_threads';
parentPort.postMessage({ kind: 'ready' });
parentPort.on('message', (message) => {
  const { id, input } = message;
  switch (input.mode) {
    case 'crash': throw new Error('thread crashed');
    case 'hang': return;
    case 'fail': parentPort.postMessage({ kind: 'failed', id, error: 'no such thing' }); return;
    case 'slow': setTimeout(() => answer(id, input), 300); return;
    default: answer(id, input);
  }
});
function answer(id, input) {
  const bytes = new Uint8Array(input.n).fill(7);
  parentPort.postMessage({ kind: 'done', id, output: { doubled: input.n * 2, thread: threadId, bytes } }, [bytes.buffer]);
}
`;
const scripted = new URL(`data:text/javascript,${encodeURIComponent(SCRIPTED)}`);
const BROKEN = new URL(`data:text/javascript,${encodeURIComponent("throw new Error('cannot load');")}`);

type In = { n: number; mode?: 'crash' | 'hang' | 'fail' | 'slow' };
type Out = { doubled: number; thread?: number; bytes?: Uint8Array; niceness?: number; policy?: number };

class BusyError extends Error {
  constructor(
    readonly reason: BusyReason,
    message: string,
  ) {
    super(message);
  }
}

const pools: Array<ThreadPool<In, Out>> = [];
function pool(options: { threads?: number; workerUrl?: URL | null; queueLimit?: number; timeoutMs?: number; niceness?: number; idle?: boolean; errors?: unknown[] } = {}): ThreadPool<In, Out> {
  const made = new ThreadPool<In, Out>({
    name: 'test-pool',
    threads: options.threads ?? 2,
    workerUrl: options.workerUrl === undefined ? scripted : options.workerUrl,
    inProcess: async (input) => ({ doubled: input.n * 2 }),
    busy: (reason, message) => new BusyError(reason, message),
    queueLimit: options.queueLimit,
    timeoutMs: options.timeoutMs,
    niceness: options.niceness,
    idle: options.idle,
    log: { error: (fields) => options.errors?.push(fields) },
  });
  pools.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((made) => made.close()));
});

async function outcomes(): Promise<Record<string, number>> {
  const metric = await metricsRegistry.getSingleMetric('thread_pool_jobs_total')!.get();
  return Object.fromEntries(metric.values.filter((value) => value.labels.pool === 'test-pool').map((value) => [String(value.labels.outcome), value.value]));
}

describe('ThreadPool', () => {
  it('runs jobs in its threads, spreading them, with transferred buffers arriving whole', async () => {
    const threads = pool({ threads: 2 });
    expect(threads.threaded).toBe(true);
    threads.start();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => threads.run({ n, mode: 'slow' })));
    expect(answers.map((answer) => answer.doubled)).toEqual([0, 2, 4, 6, 8, 10, 12, 14]);
    expect(new Set(answers.map((answer) => answer.thread)).size).toBe(2);
    expect(answers[5].bytes).toEqual(new Uint8Array(5).fill(7));
    expect(threads.queued).toBe(0);
    expect(threads.busy).toBe(0);
  });

  it('runs jobs in process without threads, or with no entry to load (under jest)', async () => {
    expect(await pool({ threads: 0 }).run({ n: 4 })).toEqual({ doubled: 8 });
    const noEntry = pool({ workerUrl: null });
    expect(noEntry.threaded).toBe(false);
    expect(await noEntry.run({ n: 5 })).toEqual({ doubled: 10 });
  });

  it('falls back to in process, logging once, when its entry cannot be loaded', async () => {
    const errors: unknown[] = [];
    const broken = pool({ workerUrl: BROKEN, errors });
    expect(await Promise.all([broken.run({ n: 1 }), broken.run({ n: 2 }), broken.run({ n: 3 })])).toEqual([{ doubled: 2 }, { doubled: 4 }, { doubled: 6 }]);
    expect(broken.threaded).toBe(false);
    expect(errors).toEqual([expect.objectContaining({ msg: expect.stringContaining('cannot start') })]);
  });

  it('refuses a job over its queue limit at once, and serves the rest', async () => {
    const small = pool({ threads: 1, queueLimit: 2 });
    const admitted = [small.run({ n: 1, mode: 'slow' }), small.run({ n: 2, mode: 'slow' }), small.run({ n: 3, mode: 'slow' })];
    const before = (await outcomes()).refused ?? 0;
    await expect(small.run({ n: 4 })).rejects.toMatchObject({ reason: 'refused' });
    expect((await outcomes()).refused).toBe(before + 1);
    expect((await Promise.all(admitted)).map((answer) => answer.doubled)).toEqual([2, 4, 6]);
  });

  it('fails the job of a thread that dies, replaces the thread, and goes on', async () => {
    const errors: unknown[] = [];
    const threads = pool({ threads: 1, errors });
    expect((await threads.run({ n: 1 })).doubled).toBe(2);
    await expect(threads.run({ n: 2, mode: 'crash' })).rejects.toMatchObject({ reason: 'thread_failed' });
    expect((await threads.run({ n: 3 })).doubled).toBe(6);
    expect(errors).toEqual([expect.objectContaining({ msg: expect.stringContaining('died') })]);
  });

  it('answers a job that failed in its thread with the failure', async () => {
    await expect(pool().run({ n: 1, mode: 'fail' })).rejects.toThrow('no such thing');
  });

  it('times a job out from the call, ends the thread that runs it away, and the next job gets a new one', async () => {
    // Long enough for a new thread to load on a busy machine: the time-out counts from the call.
    const threads = pool({ threads: 1, timeoutMs: 3000 });
    const before = await outcomes();
    await expect(threads.run({ n: 1, mode: 'hang' })).rejects.toMatchObject({ reason: 'timed_out' });
    expect((await threads.run({ n: 2 })).doubled).toBe(4);
    const after = await outcomes();
    expect(after.timed_out).toBe((before.timed_out ?? 0) + 1);
    expect(after.thread).toBeGreaterThan(before.thread ?? 0);
  });

  it('refuses what waits when closed, and every job after', async () => {
    const threads = pool({ threads: 1 });
    const running = threads.run({ n: 1, mode: 'hang' }).catch((error: unknown) => error);
    const waiting = threads.run({ n: 2 }).catch((error: unknown) => error);
    await threads.close();
    expect(await running).toMatchObject({ reason: 'shut_down' });
    expect(await waiting).toMatchObject({ reason: 'shut_down' });
    await expect(threads.run({ n: 3 })).rejects.toMatchObject({ reason: 'shut_down' });
  });
});

/**
 * serveThread itself (the compiled thread-entry.js in dist/, which the test
 * run's global setup builds; skipped, saying so, without it) lowers its own
 * thread's priority to the pool's niceness on Linux, and puts it under
 * SCHED_IDLE unless told not to (docs/adr/0053), and only its own: the thread
 * answers the niceness and the policy it runs at (field 41 of its
 * /proc/thread-self/stat: 0 SCHED_OTHER, 5 SCHED_IDLE); the main thread's stay
 * as they were.
 */
const compiledEntry = path.resolve(import.meta.dirname, '../../../../dist/libs/platform/src/threads/thread-entry.js');
const niceTestable = existsSync(compiledEntry) && process.platform === 'linux';
if (!niceTestable) process.stderr.write(`thread niceness: ${process.platform !== 'linux' ? 'not Linux' : `${compiledEntry} is not built (npm run build)`}; skipping\n`);
const REPORTS_PRIORITY = `
import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { serveThread } from ${JSON.stringify(pathToFileURL(compiledEntry).href)};
const policyOf = (path) => Number(readFileSync(path, 'utf8').split(') ')[1].split(' ')[38]);
serveThread((input) => ({ output: { doubled: input.n * 2, niceness: getPriority(), policy: policyOf('/proc/thread-self/stat') } }));
`;
/** A thread's scheduling policy from its stat file (the thread above reads its own the same way). */
const policyOf = (file: string) => Number(readFileSync(file, 'utf8').split(') ')[1].split(' ')[38]);
const SCHED_OTHER = 0;
const SCHED_IDLE = 5;

(niceTestable ? describe : describe.skip)('ThreadPool threads (serveThread)', () => {
  const reporting = new URL(`data:text/javascript,${encodeURIComponent(REPORTS_PRIORITY)}`);

  it.each([
    [undefined, THREAD_NICENESS],
    [5, 5],
    [0, 0],
  ])('run at niceness %p → %p, the main thread untouched', async (niceness, expected) => {
    const mainBefore = getPriority();
    const threads = pool({ threads: 1, workerUrl: reporting, niceness, idle: false });
    const answer = await threads.run({ n: 2 });
    expect(answer).toEqual({ doubled: 4, niceness: expected, policy: SCHED_OTHER });
    expect(getPriority()).toBe(mainBefore);
  });

  it.each([
    [undefined, THREAD_IDLE ? SCHED_IDLE : SCHED_OTHER],
    [true, SCHED_IDLE],
    [false, SCHED_OTHER],
  ])('run under SCHED_IDLE when idle is %p (policy %p), say so when ready, the main thread untouched', async (idle, expected) => {
    expect(policyOf('/proc/thread-self/stat')).toBe(SCHED_OTHER);
    const threads = pool({ threads: 1, workerUrl: reporting, idle });
    expect(threads.idleScheduled).toBeNull();
    const answer = await threads.run({ n: 2 });
    expect(answer).toEqual({ doubled: 4, niceness: THREAD_NICENESS, policy: expected });
    expect(threads.idleScheduled).toBe(expected === SCHED_IDLE);
    expect(policyOf('/proc/thread-self/stat')).toBe(SCHED_OTHER);
  });
});
