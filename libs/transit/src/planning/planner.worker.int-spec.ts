import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileDatasetStore } from '../../../platform/src/index.js';
import { parseIsoDate } from '../domain/clock-time.js';
import type { Point } from '../domain/geo.js';
import { planTrip, type PlanRequest } from '../domain/planner.js';
import { importGtfs } from '../public/import-gtfs.js';
import { planView } from '../queries/plan-transit-trip/itinerary-view.js';
import { SAMPLE_FEED, SAMPLE_STOPS, writeGtfsZip } from '../testing/gtfs-feed.js';
import { TransitFeeds, type LoadedFeed } from '../public/transit-feeds.js';
import { PlannerPool } from '../public/planner-pool.js';

/**
 * The real thread path: the compiled `planner.worker.js` (dist/, which the
 * test run's global setup builds) compiling its own networks from the
 * reference store, against the in-process planner on the same feeds — the
 * Accra trotro feed (headways) and the generated SAMPLE_FEED (timetables,
 * exact_times=1, past midnight, weekends) — over random places, days and
 * times, depart-at and arrive_by: the plans and the HTTP answers made from
 * them must be identical. Jest runs the TypeScript sources, which a thread
 * cannot load, so without dist/ these tests are skipped, saying so.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
const entry = path.join(root, 'dist/libs/transit/src/planning/planner.worker.js');
const ACCRA = path.join(root, 'starter/ghana/transit/GTFS_Accra_20190305.zip');
const built = existsSync(entry);
if (!built) process.stderr.write(`${entry} is not built (npm run build): skipping the compiled planner threads' tests\n`);

let seed = 20_240_605;
const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
/** A place up to ~400 m from a point, so walks to and from the stops vary. */
const near = (point: Point): Point => ({ lat: point.lat + (random() - 0.5) * 0.007, lng: point.lng + (random() - 0.5) * 0.007 });

(built ? describe : describe.skip)('planning in the compiled planner threads', () => {
  let store: FileDatasetStore;
  let feeds: TransitFeeds;
  let pool: PlannerPool;
  const errors: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    store = new FileDatasetStore(mkdtempSync(path.join(tmpdir(), 'transit-threads-')));
    await importGtfs(store, ACCRA, { dataset: 'accra' });
    await importGtfs(store, writeGtfsZip(SAMPLE_FEED), { dataset: 'sample' });
    feeds = new TransitFeeds(store, { info: () => undefined, error: () => undefined }, 0);
    await feeds.start();
    // A thread compiles the Accra network at its first plan: seconds on a busy machine.
    pool = new PlannerPool({ threads: 2, root: store.root, workerUrl: pathToFileURL(entry), timeoutMs: 60_000, log: { error: (fields) => errors.push(fields) } });
    pool.keep(feeds.loaded);
  }, 60_000);

  afterAll(() => pool?.close());

  const feed = (dataset: string): LoadedFeed => feeds.loaded.find((loaded) => loaded.dataset === `transit/${dataset}`)!;

  /** Plans every request in the threads (a few at a time, as concurrent requests do) and in process; answers the number compared. */
  async function compare(loaded: LoadedFeed, requests: PlanRequest[]): Promise<number> {
    let vehicles = 0;
    for (let at = 0; at < requests.length; at += 16) {
      const batch = requests.slice(at, at + 16);
      const threaded = await Promise.all(batch.map((request) => pool.plan(loaded, request)));
      batch.forEach((request, i) => {
        const inProcess = planTrip(loaded.network, request);
        expect(threaded[i]).toStrictEqual(inProcess);
        expect(JSON.stringify(planView(loaded, threaded[i], request.from, request.to))).toBe(JSON.stringify(planView(loaded, inProcess, request.from, request.to)));
        if (inProcess.itineraries.some((itinerary) => !itinerary.walkOnly)) vehicles++;
      });
    }
    expect(pool.threaded).toBe(true);
    expect(errors).toEqual([]);
    return vehicles;
  }

  it('answers random Accra trips as the in-process planner does, depart-at and arrive_by', async () => {
    const network = feed('accra').network;
    const boardable = network.stops.filter((stop) => !stop.station && network.stopPatternStart[stop.index + 1] > network.stopPatternStart[stop.index]);
    const days = ['2019-06-05', '2019-06-08', '2026-11-23'].map((day) => parseIsoDate(day)!);
    const requests = Array.from({ length: 150 }, (_, i): PlanRequest => ({
      from: near(pick(boardable)),
      to: near(pick(boardable)),
      day: pick(days),
      seconds: Math.floor(4 * 3600 + random() * 20 * 3600),
      arriveBy: i % 3 === 0,
      transit: i % 25 !== 1,
    }));
    // Most of them ride a trotro: the comparison is about itineraries, not empty answers.
    expect(await compare(feed('accra'), requests)).toBeGreaterThan(100);
  }, 120_000);

  it('answers random trips on the generated feed (timetables, exact headways, past midnight, weekends, out of date) as the in-process planner does', async () => {
    const places = Object.values(SAMPLE_STOPS);
    const { A, B, C, C2, D, E, G, H, I, J, K } = SAMPLE_STOPS;
    // Half the trips between stops some line links, in its hours (arrive_by up to 2 hours later); the rest anywhere, at any time.
    const linked = [[A, B], [A, C], [A, D], [B, D], [C2, D], [E, G], [H, I], [J, K], [A, C2]] as const;
    const days = ['2024-06-05', '2024-06-06', '2024-06-08', '2023-03-01', '2026-11-23'].map((day) => parseIsoDate(day)!);
    const requests = Array.from({ length: 200 }, (_, i): PlanRequest => {
      const [from, to] = i % 2 === 0 ? pick(linked) : [pick(places), pick(places)];
      const arriveBy = i % 3 === 0;
      const seconds = i % 2 === 0 ? Math.floor((5.5 + random() * 4 + (arriveBy ? 2 : 0)) * 3600) : Math.floor(random() * 27 * 3600);
      return { from: near(from), to: near(to), day: pick(days), seconds, arriveBy, transit: i % 20 !== 3 };
    });
    expect(await compare(feed('sample'), requests)).toBeGreaterThan(40);
  }, 120_000);

  it('follows a swap: plans on the new version, and still on the previous one for a request that names it', async () => {
    const previous = feed('sample');
    await importGtfs(store, writeGtfsZip(SAMPLE_FEED), { dataset: 'sample' });
    await feeds.reload();
    pool.keep(feeds.loaded);
    const current = feed('sample');
    expect(current.version).not.toBe(previous.version);
    const request: PlanRequest = { from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.D, day: parseIsoDate('2024-06-05')!, seconds: 6.9 * 3600, arriveBy: false, transit: true };
    for (const loaded of [current, previous]) {
      const plan = await pool.plan(loaded, request);
      expect(plan).toStrictEqual(planTrip(loaded.network, request));
      expect(plan.itineraries[0].rides).toBe(2);
    }
    expect(errors).toEqual([]);
  }, 60_000);
});
