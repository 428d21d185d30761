import type { Job, JobInfo, JobQueue } from './job-queue.port.js';

/**
 * The one behaviour suite every JobQueue adapter runs (style.md: one contract
 * per port). `open` must return a queue over the same storage each time it is
 * called, so closing and opening again is a restart; tests close the previous
 * queue before opening the next one. Queue names are unique per test, so no
 * test sees another's jobs and storage need not be wiped between tests.
 *
 * Nothing here asserts how fast anything is: delays are checked through order and state
 * (a delayed job is still 'delayed' and unrun while an immediate one has run)
 * and by a lower bound (a delayed job never runs early),
 * and waits only bound how long a failing adapter can hang a test.
 */
export function describeJobQueueContract(
  name: string,
  open: () => Promise<JobQueue>,
  cleanup?: () => Promise<void>,
): void {
  describe(`JobQueue contract: ${name}`, () => {
    let queue: JobQueue;
    /** Handlers blocked on these are released before close, which waits for running jobs, even when a test fails. */
    let gates: Deferred[] = [];
    const gate = () => {
      const d = deferred();
      gates.push(d);
      return d;
    };
    /**
     * Two workers on `q`: jobs with `k: 'f'` fail with 'bad input', any other
     * is held running until `release`; `started` resolves when one is held.
     */
    const holdOneFailOthers = (q: string) => {
      const release = gate();
      const started = deferred();
      queue.process<{ k: string }>(
        q,
        async (job) => {
          if (job.data.k === 'f') throw new Error('bad input');
          started.resolve();
          await release.promise;
        },
        { concurrency: 2 },
      );
      return { release, started };
    };

    beforeEach(async () => {
      queue = await open();
    });

    afterEach(async () => {
      for (const d of gates) d.resolve();
      gates = [];
      await queue.close();
    });

    if (cleanup) afterAll(cleanup);

    it('runs a job with its data and reports it completed', async () => {
      const q = queueName('runs');
      const data = { to: 'ops@example.com', tags: ['a', 'b'], nested: { n: 1, ok: true, none: null } };
      const { id, added } = await queue.add(q, 'send-mail', data);
      expect(added).toBe(true);
      const runs = recorder<typeof data>();
      queue.process(q, runs.handler);

      const [job] = await runs.until(1);
      expect(job).toEqual({ id, queue: q, name: 'send-mail', data, attemptsMade: 0 });
      await eventually(() => queue.getJob(q, id), (info) => info?.state === 'completed');
      expect(await queue.getJob(q, id)).toEqual({
        id,
        queue: q,
        name: 'send-mail',
        data,
        attemptsMade: 1,
        state: 'completed',
      });
    });

    it('holds a delayed job back until its delay has passed, then runs it', async () => {
      const q = queueName('delayed');
      const runs = recorder<{ n: string }>();
      queue.process(q, runs.handler, { concurrency: 1 });
      // A first job proves the worker is up, so its start-up time cannot eat into the delay below.
      await queue.add(q, 'warm-up', { n: 'warm-up' });
      await runs.until(1);

      // The delay is long enough that a loaded machine still runs 'now' well inside it (300 ms was not:
      // CI once took longer than that to hand the worker its next job).
      const delayMs = 2_000;
      const addedAt = Date.now();
      const later = await queue.add(q, 'later', { n: 'later' }, { delayMs });
      expect((await queue.getJob(q, later.id))?.state).toBe('delayed');
      const now = await queue.add(q, 'now', { n: 'now' });

      const [, second] = await runs.until(2);
      expect(second.id).toBe(now.id);
      // The job added after it has run; the delayed one is still waiting for its time.
      expect((await queue.getJob(q, later.id))?.state).toBe('delayed');
      const jobs = await runs.until(3);
      expect(jobs.map((job) => job.data.n)).toEqual(['warm-up', 'now', 'later']);
      // Never early: it ran no sooner than its delay after it was added (a lower bound, which load cannot break).
      expect(runs.ranAt[2] - addedAt).toBeGreaterThanOrEqual(delayMs);
      await eventually(() => queue.getJob(q, later.id), (info) => info?.state === 'completed');
    });

    it('retries a failing job: attemptsMade counts 0, 1, 2 and the job ends completed', async () => {
      const q = queueName('retry');
      const { id } = await queue.add(q, 'flaky', {}, { attempts: 3, backoff: { type: 'exponential', delayMs: 10 } });
      const seen: number[] = [];
      queue.process(q, async (job) => {
        seen.push(job.attemptsMade);
        if (job.attemptsMade < 2) throw new Error(`attempt ${job.attemptsMade} failed`);
      });

      const info = await eventually(() => queue.getJob(q, id), (job) => job?.state === 'completed');
      expect(seen).toEqual([0, 1, 2]);
      expect(info).toMatchObject({ state: 'completed', attemptsMade: 3 });
      expect(info?.failedReason).toBeUndefined();
    });

    it('fails a job that exhausts its attempts, with the last reason (capped exponential backoff)', async () => {
      const q = queueName('exhaust');
      const { id } = await queue.add(
        q,
        'doomed',
        {},
        { attempts: 3, backoff: { type: 'exponential', delayMs: 10, maxDelayMs: 15 } },
      );
      let runs = 0;
      queue.process(q, async () => {
        runs += 1;
        throw new Error(`boom ${runs}`);
      });

      const info = await eventually(() => queue.getJob(q, id), (job) => job?.state === 'failed');
      expect(info).toMatchObject({ state: 'failed', attemptsMade: 3, failedReason: 'boom 3' });
      expect(runs).toBe(3);
    });

    it('gives a job one attempt by default', async () => {
      const q = queueName('once');
      const { id } = await queue.add(q, 'once', {});
      let runs = 0;
      queue.process(q, async () => {
        runs += 1;
        throw 'not an Error'; // handlers may throw anything; the reason is its string form
      });

      const info = await eventually(() => queue.getJob(q, id), (job) => job?.state === 'failed');
      expect(info).toMatchObject({ attemptsMade: 1, failedReason: 'not an Error' });
      expect(runs).toBe(1);
    });

    it("follows a 'schedule' backoff: an immediate first retry, then the scheduled delay", async () => {
      const q = queueName('schedule');
      const { id } = await queue.add(q, 'scheduled', {}, { attempts: 3, backoff: { type: 'schedule', delaysMs: [0, 400] } });
      const seen: number[] = [];
      queue.process(q, async (job) => {
        seen.push(job.attemptsMade);
        if (job.attemptsMade < 2) throw new Error(`attempt ${job.attemptsMade} failed`);
      });

      // After the second failure the job waits out the 400 ms entry; it is observable as delayed.
      await eventually(
        () => queue.getJob(q, id),
        (job) => job?.state === 'delayed' && job.attemptsMade === 2,
      );
      expect(seen).toEqual([0, 1]);
      await eventually(() => queue.getJob(q, id), (job) => job?.state === 'completed');
      expect(seen).toEqual([0, 1, 2]);
    });

    it('deduplicates by jobId, also once the job has completed', async () => {
      const q = queueName('dedup');
      expect(await queue.add(q, 'order', { v: 1 }, { jobId: 'order:42' })).toEqual({ id: 'order:42', added: true });
      expect(await queue.add(q, 'order', { v: 2 }, { jobId: 'order:42' })).toEqual({ id: 'order:42', added: false });
      // Any string is an id, including ones that look like numbers.
      expect(await queue.add(q, 'order', { v: 3 }, { jobId: '42' })).toEqual({ id: '42', added: true });
      expect(await queue.add(q, 'order', { v: 4 }, { jobId: '42' })).toEqual({ id: '42', added: false });

      const runs = recorder<{ v: number }>();
      queue.process(q, runs.handler);
      const jobs = await runs.until(2);
      expect(jobs.map((job) => [job.id, job.data.v]).sort()).toEqual([
        ['42', 3],
        ['order:42', 1],
      ]);
      await eventually(() => queue.getJob(q, 'order:42'), (job) => job?.state === 'completed');
      expect(await queue.add(q, 'order', { v: 5 }, { jobId: 'order:42' })).toEqual({ id: 'order:42', added: false });
      expect((await queue.getJob(q, 'order:42'))?.data).toEqual({ v: 1 });
    });

    it('reports each state through getJob', async () => {
      const q = queueName('states');
      expect(await queue.getJob(q, 'never-added')).toBeUndefined();

      const waiting = await queue.add(q, 'w', { k: 'w' });
      const delayed = await queue.add(q, 'd', { k: 'd' }, { delayMs: 60_000 });
      expect(await queue.getJob(q, waiting.id)).toEqual({
        id: waiting.id,
        queue: q,
        name: 'w',
        data: { k: 'w' },
        attemptsMade: 0,
        state: 'waiting',
      });
      expect((await queue.getJob(q, delayed.id))?.state).toBe('delayed');

      const failing = await queue.add(q, 'f', { k: 'f' });
      const { release, started } = holdOneFailOthers(q);

      await started.promise;
      expect((await queue.getJob(q, waiting.id))?.state).toBe('active');
      release.resolve();
      await eventually(() => queue.getJob(q, waiting.id), (job) => job?.state === 'completed');
      const failed = await eventually(() => queue.getJob(q, failing.id), (job) => job?.state === 'failed');
      expect(failed?.failedReason).toBe('bad input');
      expect((await queue.getJob(q, delayed.id))?.state).toBe('delayed');
    });

    it('counts waiting, delayed and running jobs as its depth, never finished ones', async () => {
      const q = queueName('depth');
      expect(await queue.depth(q)).toBe(0);
      await queue.add(q, 'w', { k: 'w' });
      await queue.add(q, 'd', { k: 'd' }, { delayMs: 60_000 });
      await queue.add(q, 'f', { k: 'f' });
      expect(await queue.depth(q)).toBe(3);
      expect(await queue.depth(queueName('depth-other'))).toBe(0);

      const { release, started } = holdOneFailOthers(q);
      await started.promise;
      // 'w' running, 'd' delayed; 'f' failed (or about to).
      await eventually(() => queue.depth(q), (depth) => depth === 2);
      release.resolve();
      await eventually(() => queue.depth(q), (depth) => depth === 1);
    });

    it('removes waiting, delayed and completed jobs: gone from getJob and never run', async () => {
      const q = queueName('remove');
      const waiting = await queue.add(q, 'w', {}, { jobId: 'w' });
      const delayed = await queue.add(q, 'd', {}, { jobId: 'd', delayMs: 50 });
      await queue.remove(q, waiting.id);
      await queue.remove(q, delayed.id);
      await queue.remove(q, 'not-there'); // removing nothing is fine
      expect(await queue.getJob(q, waiting.id)).toBeUndefined();
      expect(await queue.getJob(q, delayed.id)).toBeUndefined();

      const runs = recorder();
      queue.process(q, runs.handler);
      // A sentinel due after the removed delayed job: once it has run, the removed ones would have too.
      const sentinel = await queue.add(q, 's', {}, { jobId: 's', delayMs: 100 });
      await runs.until(1);
      await eventually(() => queue.getJob(q, sentinel.id), (job) => job?.state === 'completed');
      expect(runs.jobs.map((job) => job.id)).toEqual(['s']);

      await queue.remove(q, sentinel.id);
      expect(await queue.getJob(q, sentinel.id)).toBeUndefined();
      // Removal frees the id for deduplication.
      expect(await queue.add(q, 's', {}, { jobId: 's' })).toEqual({ id: 's', added: true });
    });

    it('removes an active job: hidden at once, its id taken until the run ends, never run again', async () => {
      const q = queueName('remove-active');
      const release = gate();
      const runs = recorder();
      queue.process(q, async (job) => {
        await runs.handler(job);
        if (job.id === 'victim') {
          await release.promise;
          throw new Error('fails after removal'); // would be retried if the job still existed
        }
      });
      await queue.add(q, 'v', { secret: 'payload' }, { jobId: 'victim', attempts: 3 });
      await runs.until(1);

      await queue.remove(q, 'victim');
      expect(await queue.getJob(q, 'victim')).toBeUndefined();
      expect(await queue.add(q, 'v', { other: 'data' }, { jobId: 'victim' })).toEqual({ id: 'victim', added: false });
      release.resolve();

      await queue.add(q, 's', {}, { jobId: 'sentinel', delayMs: 100 });
      await runs.until(2);
      await eventually(() => queue.getJob(q, 'sentinel'), (job) => job?.state === 'completed');
      expect(runs.jobs.map((job) => job.id)).toEqual(['victim', 'sentinel']);
      expect(await queue.getJob(q, 'victim')).toBeUndefined();
    });

    it('never runs more jobs at once than the concurrency', async () => {
      const q = queueName('concurrency');
      const total = 6;
      for (let i = 0; i < total; i++) await queue.add(q, 'c', { i });
      let inFlight = 0;
      let maxInFlight = 0;
      const twoRunning = gate();
      const done = recorder();
      queue.process(
        q,
        async (job) => {
          inFlight += 1;
          maxInFlight = Math.max(maxInFlight, inFlight);
          if (inFlight === 2) twoRunning.resolve();
          // The first jobs wait for a second one to start: with a concurrency below 2 this never ends.
          await twoRunning.promise;
          await pause(10);
          inFlight -= 1;
          await done.handler(job);
        },
        { concurrency: 2 },
      );

      await done.until(total);
      expect(maxInFlight).toBe(2);
    });

    it('runs jobs added before a restart after it, and keeps finished ones', async () => {
      const q = queueName('restart');
      const finishedFirst = await queue.add(q, 'first', { n: 0 }, { jobId: 'first' });
      const firstRun = recorder();
      const worker = queue.process(q, firstRun.handler);
      await firstRun.until(1);
      await eventually(() => queue.getJob(q, finishedFirst.id), (job) => job?.state === 'completed');
      await worker.close();

      const immediate = await queue.add(q, 'immediate', { n: 1 });
      const delayed = await queue.add(q, 'delayed', { n: 2 }, { delayMs: 50 });
      await queue.close();
      queue = await open();

      expect((await queue.getJob(q, finishedFirst.id))?.state).toBe('completed');
      expect(await queue.add(q, 'first', { n: 9 }, { jobId: 'first' })).toEqual({ id: 'first', added: false });
      const runs = recorder<{ n: number }>();
      queue.process(q, runs.handler);
      const jobs = await runs.until(2);
      expect(jobs.map((job) => [job.id, job.name, job.data.n])).toEqual([
        [immediate.id, 'immediate', 1],
        [delayed.id, 'delayed', 2],
      ]);
    });

    it('lets a worker stop and another take over the queue', async () => {
      const q = queueName('handover');
      const first = recorder();
      const worker = queue.process(q, first.handler);
      expect(() => queue.process(q, first.handler)).toThrow(/already registered/);
      await queue.add(q, 'a', {});
      await first.until(1);
      await worker.close();
      await worker.close(); // idempotent

      const second = recorder();
      queue.process(q, second.handler);
      const b = await queue.add(q, 'b', {});
      const [job] = await second.until(1);
      expect(job.id).toBe(b.id);
      expect(first.jobs).toHaveLength(1);
    });

    it('answers ping while open and refuses work once closed', async () => {
      await expect(queue.ping()).resolves.toBeUndefined();
      await queue.close();
      await expect(queue.ping()).rejects.toThrow();
      await expect(queue.add(queueName('closed'), 'x', {})).rejects.toThrow();
      queue = await open(); // afterEach closes this one
    });
  });
}

// ── helpers ─────────────────────────────────────────────────────────────

let queueCounter = 0;
const runTag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

function queueName(label: string): string {
  queueCounter += 1;
  return `contract-${label}-${runTag}-${queueCounter}`;
}

interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Upper bound on any wait: only reached when an adapter is broken. */
const PATIENCE_MS = 8000;

/** A handler that records the jobs it receives, and a way to wait for the n-th. */
function recorder<Data = unknown>() {
  const jobs: Job<Data>[] = [];
  /** When each job's handler started, by Date.now(), in the order of `jobs`. */
  const ranAt: number[] = [];
  let wake: (() => void) | undefined;
  return {
    jobs,
    ranAt,
    handler: async (job: Job<Data>) => {
      jobs.push(job);
      ranAt.push(Date.now());
      wake?.();
    },
    async until(count: number): Promise<Job<Data>[]> {
      const deadline = Date.now() + PATIENCE_MS;
      while (jobs.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} runs, saw ${jobs.length}: ${JSON.stringify(jobs)}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return jobs.slice(0, count);
    },
  };
}

/** Polls until the predicate holds and returns that value; fails with the last value seen. */
async function eventually<T extends JobInfo | number | undefined>(
  read: () => Promise<T>,
  predicate: (value: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + PATIENCE_MS;
  let last = await read();
  while (!predicate(last)) {
    if (Date.now() > deadline) {
      throw new Error(`condition not reached; last value: ${JSON.stringify(last)}`);
    }
    await pause(10);
    last = await read();
  }
  return last;
}

