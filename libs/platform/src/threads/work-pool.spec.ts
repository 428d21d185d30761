import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadPoolJobs, WorkPool, type BusyReason } from './work-pool.js';

/**
 * The pool's queue, failures and time-outs, with thread modules scripted to
 * misbehave (plain JavaScript files, so piscina loads them under jest): each
 * answers `{ n, doubled, thread }` the way serveTask does, and `n` says what
 * the thread does with the job.
 */
const SCRIPTED = `
import { threadId } from 'node:worker_threads';
export default async function (input) {
  switch (input.n) {
    case -1: // the thread dies
      process.exit(3);
    case -2: // runs away
      for (;;);
    case -3: // the job itself fails
      return { ok: false, error: 'no network' };
    case -4: // a slow job
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { ok: true, output: { n: input.n, doubled: input.n * 2, thread: threadId } };
    default:
      return { ok: true, output: { n: input.n, doubled: input.n * 2, thread: threadId } };
  }
}
`;
const folder = mkdtempSync(path.join(tmpdir(), 'work-pool-'));
const scripted = path.join(folder, 'scripted.mjs');
writeFileSync(scripted, SCRIPTED);

class Busy extends Error {
  constructor(
    readonly reason: BusyReason,
    message: string,
  ) {
    super(message);
  }
}

type Answer = { n: number; doubled: number; thread: number };
const pools: Array<WorkPool<{ n: number }, Answer>> = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});
function pool(options: { threads?: number; workerUrl?: URL | null; queueLimit?: number; timeoutMs?: number; errors?: unknown[] } = {}) {
  const created = new WorkPool<{ n: number }, Answer>({
    name: 'test-pool',
    threads: options.threads ?? 1,
    workerUrl: options.workerUrl === undefined ? pathToFileURL(scripted) : options.workerUrl,
    inProcess: ({ n }) => ({ n, doubled: n * 2, thread: 0 }),
    busy: (reason, message) => new Busy(reason, message),
    queueLimit: options.queueLimit,
    timeoutMs: options.timeoutMs ?? 60_000,
    log: { error: (fields) => options.errors?.push(fields) },
  });
  pools.push(created);
  return created;
}
async function jobs(outcome: string): Promise<number> {
  return (await threadPoolJobs.get()).values.find((value) => value.labels.pool === 'test-pool' && value.labels.outcome === outcome)?.value ?? 0;
}
const reasonOf = (promise: Promise<unknown>) => promise.then(
  () => 'answered',
  (error: Busy) => error.reason ?? error.message,
);

describe('WorkPool (piscina)', () => {
  it('runs jobs in its threads and counts them', async () => {
    const threads = pool({ threads: 2 });
    const before = await jobs('thread');
    const answers = await Promise.all([1, 2, 3, 4].map((n) => threads.run({ n })));
    expect(answers.map((answer) => answer.doubled)).toEqual([2, 4, 6, 8]);
    // Not the calling thread's.
    expect(answers.every((answer) => answer.thread > 0)).toBe(true);
    expect(threads.threaded).toBe(true);
    expect((await jobs('thread')) - before).toBe(4);
  }, 60_000);

  it('runs in process without threads, without a module, and when the module is not there', async () => {
    const before = await jobs('in_process');
    for (const made of [pool({ threads: 0 }), pool({ workerUrl: null }), pool({ workerUrl: pathToFileURL(path.join(folder, 'missing.js')) })]) {
      expect(made.threaded).toBe(false);
      expect(await made.run({ n: 5 })).toEqual({ n: 5, doubled: 10, thread: 0 });
    }
    expect((await jobs('in_process')) - before).toBe(3);
  });

  it('refuses a job beyond the queue limit at once, and serves the others', async () => {
    const threads = pool({ threads: 1, queueLimit: 2 });
    // Warm: the thread is up, so the next slow job holds it.
    await threads.run({ n: 1 });
    const running = threads.run({ n: -4 });
    const waiting = [threads.run({ n: 2 }), threads.run({ n: 3 })];
    const refused = threads.run({ n: 4 });
    expect(await reasonOf(refused)).toBe('refused');
    expect(await running).toMatchObject({ doubled: -8 });
    expect((await Promise.all(waiting)).map((answer) => answer.doubled)).toEqual([4, 6]);
  }, 60_000);

  it('times a runaway job out, ends its thread, and serves the next job on a new one', async () => {
    const threads = pool({ threads: 1, timeoutMs: 1_500 });
    const first = await threads.run({ n: 1 });
    expect(await reasonOf(threads.run({ n: -2 }))).toBe('timed_out');
    const next = await threads.run({ n: 2 });
    expect(next.doubled).toBe(4);
    expect(next.thread).not.toBe(first.thread);
  }, 60_000);

  it('fails the job of a thread that dies with the busy error, and goes on', async () => {
    const errors: unknown[] = [];
    const threads = pool({ threads: 1, errors });
    expect(await reasonOf(threads.run({ n: -1 }))).toBe('thread_failed');
    expect(errors).toHaveLength(1);
    expect((await threads.run({ n: 3 })).doubled).toBe(6);
  }, 60_000);

  it("rejects a job's own failure as an error, not as busy", async () => {
    const threads = pool();
    await expect(threads.run({ n: -3 })).rejects.toThrow('test-pool job failed: no network');
  }, 60_000);

  it('refuses every job once closed', async () => {
    const threads = pool();
    await threads.run({ n: 1 });
    await threads.close();
    expect(await reasonOf(threads.run({ n: 2 }))).toBe('shut_down');
  }, 60_000);
});
