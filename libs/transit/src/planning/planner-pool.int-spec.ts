import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileDatasetStore } from '../../../platform/src/index.js';
import { parseIsoDate } from '../domain/clock-time.js';
import { TransitBusyError } from '../domain/errors.js';
import { planTrip, type Plan, type PlanRequest } from '../domain/planner.js';
import { importGtfs } from '../public/import-gtfs.js';
import { SAMPLE_FEED, SAMPLE_STOPS, writeGtfsZip } from '../testing/gtfs-feed.js';
import { TransitFeeds, type LoadedFeed } from '../public/transit-feeds.js';
import { metricsRegistry } from '../../../platform/src/index.js';
import { PlannerPool, transitPlans } from '../public/planner-pool.js';

/**
 * The pool's queue, failures and time-outs, with threads scripted to
 * misbehave (plain JavaScript, as `data:` modules, so they load under jest):
 * each answers a plan with `{ seconds, thread }`, and a request's `seconds`
 * says what the thread does with it. The compiled planner thread itself is
 * tested in planner.worker.int-spec.ts.
 */
const SCRIPTED = `
import { parentPort, threadId } from 'node:worker_threads';
parentPort.postMessage({ kind: 'ready' });
parentPort.on('message', (message) => {
  if (message.kind !== 'plan') return;
  const { id, request } = message;
  const answer = () => parentPort.postMessage({ kind: 'planned', id, plan: { seconds: request.seconds, thread: threadId } });
  switch (request.seconds) {
    case 1: // crashes the thread
      throw new Error('planner thread crashed');
    case 2: // starts its search and never ends it
      parentPort.postMessage({ kind: 'started', id });
      return;
    case 3: // still compiling its network for a while, then answers
      setTimeout(() => { parentPort.postMessage({ kind: 'started', id }); answer(); }, 1000);
      return;
    case 4: // the search fails
      parentPort.postMessage({ kind: 'failed', id, error: 'no network' });
      return;
    default:
      parentPort.postMessage({ kind: 'started', id });
      answer();
  }
});
`;
const scripted = new URL(`data:text/javascript,${encodeURIComponent(SCRIPTED)}`);
const BROKEN = new URL(`data:text/javascript,${encodeURIComponent("throw new Error('cannot load');")}`);

let feed: LoadedFeed;
const request = (seconds: number): PlanRequest => ({ from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.D, day: parseIsoDate('2024-06-05')!, seconds, arriveBy: false, transit: true });
type Scripted = { seconds: number; thread: number };
const answer = (plan: Promise<Plan>) => plan as unknown as Promise<Scripted>;

beforeAll(async () => {
  const store = new FileDatasetStore(mkdtempSync(path.join(tmpdir(), 'transit-pool-')));
  await importGtfs(store, writeGtfsZip(SAMPLE_FEED));
  const feeds = new TransitFeeds(store, { info: () => undefined, error: () => undefined }, 0);
  await feeds.start();
  feed = feeds.loaded[0];
});

const pools: PlannerPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});
function pool(options: { threads?: number; workerUrl?: URL | null; queueLimit?: number; timeoutMs?: number; errors?: Array<Record<string, unknown>> } = {}): PlannerPool {
  const created = new PlannerPool({ threads: options.threads ?? 1, root: tmpdir(), workerUrl: options.workerUrl === undefined ? scripted : options.workerUrl, queueLimit: options.queueLimit, timeoutMs: options.timeoutMs, log: { error: (fields) => options.errors?.push(fields) } });
  pools.push(created);
  return created;
}

/** transit_plans_total for one outcome, as GET /metrics counts it. */
async function plans(outcome: string): Promise<number> {
  return (await transitPlans.get()).values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
}

async function queueDepth(): Promise<number> {
  return (await metricsRegistry.getSingleMetric('transit_planner_queue_depth')!.get()).values[0].value;
}

describe('the transit planner pool', () => {
  it('spreads requests over its threads and answers each its own plan', async () => {
    const planner = pool({ threads: 2 });
    const before = await plans('thread');
    const answers = await Promise.all([10, 11, 12, 13, 14, 15].map((seconds) => answer(planner.plan(feed, request(seconds)))));
    expect((await plans('thread')) - before).toBe(6);
    expect(answers.map((plan) => plan.seconds)).toEqual([10, 11, 12, 13, 14, 15]);
    expect(new Set(answers.map((plan) => plan.thread)).size).toBe(2);
    expect(planner.threaded).toBe(true);
  });

  it('refuses a request with 503 TRANSIT_BUSY and Retry-After when every thread is busy and the queue is full', async () => {
    const planner = pool({ threads: 1, queueLimit: 2 });
    const before = await plans('refused');
    const accepted = [10, 11, 12].map((seconds) => answer(planner.plan(feed, request(seconds))));
    expect(await queueDepth()).toBe(2);
    const refused = planner.plan(feed, request(13));
    expect((await plans('refused')) - before).toBe(1);
    await expect(refused).rejects.toBeInstanceOf(TransitBusyError);
    await expect(refused).rejects.toMatchObject({ code: 'TRANSIT_BUSY', status: 503, retryAfterSeconds: 1, message: expect.stringMatching(/at capacity/) });
    expect((await Promise.all(accepted)).map((plan) => plan.seconds)).toEqual([10, 11, 12]);
    // The queue drained: room again.
    expect((await answer(planner.plan(feed, request(14)))).seconds).toBe(14);
  });

  it('fails the request of a thread that dies with 503, replaces the thread, and serves the requests behind it', async () => {
    const errors: Array<Record<string, unknown>> = [];
    const planner = pool({ threads: 1, errors });
    const first = (await answer(planner.plan(feed, request(10)))).thread;
    const before = await plans('thread_failed');
    const crashed = planner.plan(feed, request(1));
    const behind = answer(planner.plan(feed, request(11)));
    await expect(crashed).rejects.toMatchObject({ code: 'TRANSIT_BUSY', status: 503, message: expect.stringMatching(/thread failed/) });
    expect((await plans('thread_failed')) - before).toBe(1);
    const next = await behind;
    expect(next.seconds).toBe(11);
    expect(next.thread).not.toBe(first);
    expect(errors).toEqual([expect.objectContaining({ msg: 'a transit planner thread died; replacing it', err: expect.stringMatching(/crashed/) })]);
  });

  it('times out a runaway search with 503, ending and replacing its thread', async () => {
    const errors: Array<Record<string, unknown>> = [];
    const planner = pool({ threads: 1, timeoutMs: 500, errors });
    const first = (await answer(planner.plan(feed, request(10)))).thread;
    const before = await plans('timed_out');
    await expect(planner.plan(feed, request(2))).rejects.toMatchObject({ code: 'TRANSIT_BUSY', message: expect.stringMatching(/longer than 0.5 s/) });
    expect((await plans('timed_out')) - before).toBe(1);
    const next = await answer(planner.plan(feed, request(11)));
    expect(next.thread).not.toBe(first);
    expect(errors).toEqual([]);
  });

  it('times out a request whose thread is still compiling, and keeps the thread for the next', async () => {
    const planner = pool({ threads: 1, timeoutMs: 500 });
    const first = (await answer(planner.plan(feed, request(10)))).thread;
    await expect(planner.plan(feed, request(3))).rejects.toMatchObject({ code: 'TRANSIT_BUSY' });
    expect(planner.busy).toBe(1);
    while (planner.busy > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await answer(planner.plan(feed, request(11)))).thread).toBe(first);
  });

  it('times out a request still waiting in the queue, which then never reaches a thread', async () => {
    const planner = pool({ threads: 1, timeoutMs: 300 });
    const compiling = planner.plan(feed, request(3)).catch((error: Error) => error);
    await expect(planner.plan(feed, request(10))).rejects.toMatchObject({ code: 'TRANSIT_BUSY' });
    expect(planner.queued).toBe(0);
    await compiling;
  });

  it('passes a failed search on as an error (a 500), not as busy', async () => {
    const planner = pool({ threads: 1 });
    await expect(planner.plan(feed, request(4))).rejects.toThrow('transit planning failed: no network');
    expect((await answer(planner.plan(feed, request(10)))).seconds).toBe(10);
  });

  it('fails a request that cannot be sent to a thread alone, without holding the thread', async () => {
    const planner = pool({ threads: 1 });
    const unclonable = { ...request(10), from: { lat: 5.6, lng: -0.3, toString: () => 'A' } };
    await expect(planner.plan(feed, unclonable)).rejects.toThrow(/could not be cloned/);
    expect(planner.busy).toBe(0);
    expect((await answer(planner.plan(feed, request(11)))).seconds).toBe(11);
  });

  it('plans in process when the thread entry cannot be loaded, saying so once', async () => {
    for (const workerUrl of [BROKEN, pathToFileURL(path.join(tmpdir(), 'no-such-planner.worker.js'))]) {
      const errors: Array<Record<string, unknown>> = [];
      const planner = pool({ threads: 2, workerUrl, errors });
      const plans = await Promise.all([planner.plan(feed, request(7 * 3600)), planner.plan(feed, request(7 * 3600 + 60)), planner.plan(feed, request(7 * 3600 + 120))]);
      expect(plans[0]).toEqual(planTrip(feed.network, request(7 * 3600)));
      expect(plans[2]).toEqual(planTrip(feed.network, request(7 * 3600 + 120)));
      expect(planner.threaded).toBe(false);
      expect(errors).toEqual([expect.objectContaining({ msg: 'transit planner threads cannot start; planning in process' })]);
    }
  });

  it('plans in process with no threads, and under jest when not given the compiled entry', async () => {
    const underJest = new PlannerPool({ threads: 2, root: tmpdir() });
    pools.push(underJest);
    for (const planner of [pool({ threads: 0 }), underJest]) {
      expect(planner.threaded).toBe(false);
      expect(await planner.plan(feed, request(7 * 3600))).toEqual(planTrip(feed.network, request(7 * 3600)));
    }
  });

  it('refuses what waits when closed, and ends its threads', async () => {
    const planner = pool({ threads: 1 });
    const outcomes = Promise.allSettled([planner.plan(feed, request(3)), planner.plan(feed, request(10))]);
    await planner.close();
    const [running, waiting] = await outcomes;
    expect(running).toMatchObject({ status: 'rejected', reason: { code: 'TRANSIT_BUSY', message: expect.stringMatching(/shutting down/) } });
    expect(waiting).toMatchObject({ status: 'rejected', reason: { code: 'TRANSIT_BUSY' } });
    expect(planner.busy).toBe(0);
  });
});

describe('a plan crossing postMessage', () => {
  it('arrives as made: plain objects, arrays, numbers, strings (structured clone)', () => {
    const days = ['2024-06-05', '2024-06-08', '2026-01-01', '2023-06-05'].map((day) => parseIsoDate(day)!);
    const places = Object.values(SAMPLE_STOPS);
    let checked = 0;
    for (const day of days) {
      for (const from of places) {
        for (const to of places) {
          for (const arriveBy of [false, true]) {
            const plan = planTrip(feed.network, { from, to, day, seconds: arriveBy ? 8 * 3600 : 6.9 * 3600, arriveBy, transit: true });
            expect(structuredClone(plan)).toStrictEqual(plan);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(4 * 11 * 11 * 2);
  });
});
