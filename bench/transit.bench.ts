import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import yauzl from 'yauzl';
import {
  importGtfs,
  parseClockTime,
  parseGtfsTime,
  parseIsoDate,
  planTrip,
  PlannerPool,
  type LoadedFeed,
  type Plan,
  type PlanRequest,
  type TransitNetwork,
} from '../libs/transit/src/index.js';
import { TransitFeeds } from '../libs/transit/src/testing/benchmarked.js';
import { percentile, toRow, type Check, type Row, type Sample, type Section } from './report.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';

/**
 * Transit on the Accra trotro feed (the starter pack's copy, always in the
 * repository): POST /v2/route/transit's planner (RAPTOR with headway trips,
 * walking access and transfers) for random pairs of stops, and the GTFS
 * import. Baselines, measured in the same run (issue #17): for the queries, a
 * plain scan of every stop time looking for a trip serving both stops (what
 * answering without an index costs, for direct trips only); for the import,
 * a plain scan of stop_times.txt out of the zip (inflate, split, parse the
 * times). In process: the HTTP layer is measured by the http benchmark.
 *
 * Planner threads (docs/adr/0019, "Planning off the event loop"): the same
 * searches through the PlannerPool (the compiled planner.worker.js) against
 * the in-process planner in the same run, with CONCURRENT_CLIENTS requests in
 * flight (closed loop; an in-process request waits behind the others' searches
 * as it would on the api's event loop), and the event-loop delay the main
 * thread sees meanwhile (perf_hooks.monitorEventLoopDelay).
 */
const CONCURRENT_CLIENTS = 4;
export interface TransitBenchOptions {
  queries: number;
  imports: number;
  rounds: number;
  progress: (line: string) => void;
}

const FEED = fileURLToPath(new URL('../../starter/ghana/transit/GTFS_Accra_20190305.zip', import.meta.url));
const P50_GOAL_MS = 50;

export async function runTransitBench(options: TransitBenchOptions): Promise<Section> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-transit-'));
  try {
    const rows: Row[] = [];
    const store = new FileDatasetStore(dir);

    // Import, against a plain scan of stop_times.txt.
    const scans: Sample[] = [];
    const imports: Sample[] = [];
    for (let round = 0; round < options.imports; round++) {
      options.progress(`transit: import ${round + 1}/${options.imports}`);
      const scanStarted = performance.now();
      const stopTimes = await scanStopTimes(FEED);
      scans.push(single(performance.now() - scanStarted));
      const importStarted = performance.now();
      await importGtfs(store, FEED);
      imports.push(single(performance.now() - importStarted));
      if (stopTimes !== 11_336) throw new Error(`the scan found ${stopTimes} stop times, not 11,336`);
    }
    const scanRow = toRow('plain scan of stop_times.txt (inflate, split, parse times)', 'baseline', scans);
    rows.push(scanRow, toRow('import:gtfs (whole feed: checks, shapes, patterns, commit)', 'ours', imports, scanRow));

    const feeds = new TransitFeeds(store, { info: () => undefined, error: () => undefined }, 0);
    const loadStarted = performance.now();
    await feeds.start();
    const loadMs = performance.now() - loadStarted;
    const network = feeds.loaded[0].network;

    const day = parseIsoDate('2019-06-05')!;
    const departure = parseClockTime('08:00')!;
    const boardable = network.stops.filter((stop) => !stop.station && network.stopPatternStart[stop.index + 1] > network.stopPatternStart[stop.index]);
    let seed = 20_190_305;
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647);
    const pairs = Array.from({ length: options.queries }, () => [boardable[Math.floor(random() * boardable.length)], boardable[Math.floor(random() * boardable.length)]] as const);
    const scan = directScan(network);

    // Warm-up: JIT and the active-service cache, outside the measurement.
    for (const [from, to] of pairs.slice(0, 20)) planTrip(network, { from, to, day, seconds: departure, arriveBy: false, transit: true });

    const samples: Record<'scan' | 'plan' | 'arriveBy', Sample[]> = { scan: [], plan: [], arriveBy: [] };
    let answered = 0;
    for (let round = 0; round < options.rounds; round++) {
      options.progress(`transit: queries, round ${round + 1}/${options.rounds}`);
      const order: Array<'scan' | 'plan' | 'arriveBy'> = round % 2 === 0 ? ['scan', 'plan', 'arriveBy'] : ['plan', 'scan', 'arriveBy'];
      for (const subject of order) {
        // arrive_by bisects over departures (several searches each): a quarter of the pairs keeps the run short.
        const subset = subject === 'arriveBy' ? pairs.slice(0, Math.max(20, Math.floor(pairs.length / 4))) : pairs;
        samples[subject].push(
          measure(subset, ([from, to]) => {
            if (subject === 'scan') scan(from.index, to.index);
            else {
              const plan = planTrip(network, { from, to, day, seconds: subject === 'arriveBy' ? departure + 3600 : departure, arriveBy: subject === 'arriveBy', transit: true });
              if (round === 0 && subject === 'plan' && plan.itineraries.some((itinerary) => !itinerary.walkOnly)) answered++;
            }
          }),
        );
      }
    }
    const queryScan = toRow('plain scan of all stop times for a direct trip', 'baseline', samples.scan);
    const planRow = toRow('planTrip: RAPTOR, ≤ 5 vehicles, walking access/transfers', 'ours', samples.plan, queryScan);
    rows.push(queryScan, planRow, toRow('planTrip with arrive_by (bisection over departures)', 'ours', samples.arriveBy, queryScan));

    const threads = await threadRows(feeds.loaded[0], store.root, pairs, day, departure, options);
    rows.push(...threads.rows);

    const p50 = percentile(samples.plan.flatMap((sample) => sample.latenciesMs), 50) ?? Infinity;
    const checks: Check[] = [
      ...threads.checks,
      { name: 'most random pairs connect by trotro', ok: answered / pairs.length > 0.8, detail: `${answered} of ${pairs.length} pairs answered with a vehicle at 08:00 on a weekday` },
      { name: `query p50 under ${P50_GOAL_MS} ms`, ok: p50 < P50_GOAL_MS, detail: `p50 ${p50.toFixed(2)} ms, p99 ${planRow.p99Ms?.toFixed(2)} ms`, goal: true },
    ];
    return {
      id: 'transit',
      title: `transit on the Accra feed: ${network.stops.length} stops, ${network.patterns.length} patterns, ${network.transferCount} transfers; loaded in ${loadMs.toFixed(0)} ms`,
      unit: 'query',
      settings: { queries: options.queries, rounds: options.rounds, imports: options.imports, load_ms: Math.round(loadMs), date: '2019-06-05', time: '08:00', concurrent_clients: CONCURRENT_CLIENTS },
      rows,
      checks,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Stop = { lat: number; lng: number; index: number };

/**
 * In process against the planner threads (1 and 2): depart-at one at a time
 * and with CONCURRENT_CLIENTS in flight, arrive_by with CONCURRENT_CLIENTS in
 * flight, and the main thread's event-loop delay during the arrive_by runs.
 */
async function threadRows(feed: LoadedFeed, root: string, pairs: ReadonlyArray<readonly [Stop, Stop]>, day: number, departure: number, options: TransitBenchOptions): Promise<{ rows: Row[]; checks: Check[] }> {
  const request = ([from, to]: readonly [Stop, Stop], arriveBy: boolean): PlanRequest => ({
    from: { lat: from.lat, lng: from.lng },
    to: { lat: to.lat, lng: to.lng },
    day,
    seconds: arriveBy ? departure + 3600 : departure,
    arriveBy,
    transit: true,
  });
  const departAt = pairs.slice(0, Math.min(pairs.length, 400)).map((pair) => request(pair, false));
  const arriveBy = pairs.slice(0, Math.max(20, Math.floor(departAt.length / 4))).map((pair) => request(pair, true));
  const pools = { one: new PlannerPool({ threads: 1, root }), two: new PlannerPool({ threads: 2, root }) };
  try {
    const checks: Check[] = [];
    for (const [name, pool] of Object.entries(pools)) {
      // Each thread compiles its network and warms up outside the measurement.
      pool.keep([feed]);
      const answers = await Promise.all([...departAt.slice(0, 40), ...arriveBy.slice(0, 10)].map((item) => pool.plan(feed, item)));
      const differing = [...departAt.slice(0, 40), ...arriveBy.slice(0, 10)].filter((item, i) => !isDeepStrictEqual(answers[i], planTrip(feed.network, item))).length;
      checks.push({
        name: `the planner threads (${name}) answer as the in-process planner`,
        ok: pool.threaded && differing === 0,
        detail: pool.threaded ? `${differing} of ${answers.length} plans differ` : 'the pool plans in process: the compiled planner.worker.js did not load',
      });
    }
    type Subject = 'inProcess' | 'one' | 'two';
    const subjects: Subject[] = ['inProcess', 'one', 'two'];
    const plan = (subject: Subject, item: PlanRequest): Promise<Plan> =>
      subject === 'inProcess' ? new Promise((resolve) => setImmediate(() => resolve(planTrip(feed.network, item)))) : pools[subject].plan(feed, item);
    const samples = { sequential: new Map<Subject, Sample[]>(), concurrent: new Map<Subject, Sample[]>(), arriveBy: new Map<Subject, Sample[]>() };
    // A fresh monitor per run: re-enabling one counts the pause between runs as a delay.
    const delays = new Map<Subject, IntervalHistogram[]>(subjects.map((subject) => [subject, []]));
    const add = (map: Map<Subject, Sample[]>, subject: Subject, sample: Sample) => map.set(subject, [...(map.get(subject) ?? []), sample]);
    for (let round = 0; round < options.rounds; round++) {
      options.progress(`transit: planner threads, round ${round + 1}/${options.rounds}`);
      for (const subject of round % 2 === 0 ? subjects : [...subjects].reverse()) {
        add(samples.sequential, subject, await concurrently(departAt, 1, (item) => plan(subject, item)));
        add(samples.concurrent, subject, await concurrently(departAt, CONCURRENT_CLIENTS, (item) => plan(subject, item)));
        const delay = monitorEventLoopDelay({ resolution: 1 });
        delay.enable();
        add(samples.arriveBy, subject, await concurrently(arriveBy, CONCURRENT_CLIENTS, (item) => plan(subject, item)));
        delay.disable();
        delays.get(subject)!.push(delay);
      }
    }
    const rows: Row[] = [];
    const label = { inProcess: 'in process', one: 'planner threads ×1', two: 'planner threads ×2' };
    for (const [kind, title] of [
      ['sequential', 'depart-at, one at a time'],
      ['concurrent', `depart-at, ${CONCURRENT_CLIENTS} in flight`],
      ['arriveBy', `arrive_by, ${CONCURRENT_CLIENTS} in flight`],
    ] as const) {
      const baseline = toRow(`${title}: ${label.inProcess}`, 'baseline', samples[kind].get('inProcess')!);
      rows.push(baseline, ...(['one', 'two'] as const).map((subject) => toRow(`${title}: ${label[subject]}`, 'ours', samples[kind].get(subject)!, baseline)));
    }
    const delayBaseline = delayRow(`event-loop delay during arrive_by: ${label.inProcess}`, 'baseline', samples.arriveBy.get('inProcess')!, delays.get('inProcess')!);
    rows.push(delayBaseline, ...(['one', 'two'] as const).map((subject) => delayRow(`event-loop delay during arrive_by: ${label[subject]}`, 'ours', samples.arriveBy.get(subject)!, delays.get(subject)!, delayBaseline)));
    return { rows, checks };
  } finally {
    await Promise.all(Object.values(pools).map((pool) => pool.close()));
  }
}

/** Closed loop: `clients` callers, each sending its next request when the last is answered; latency from send to answer. */
async function concurrently<T>(items: readonly T[], clients: number, run: (item: T) => Promise<unknown>): Promise<Sample> {
  const latenciesMs: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < items.length) {
        const item = items[next++];
        const t0 = performance.now();
        await run(item);
        latenciesMs.push(performance.now() - t0);
      }
    }),
  );
  return { ops: items.length, seconds: (performance.now() - started) / 1000, latenciesMs };
}

/**
 * A row whose p50/p99 are the main thread's event-loop delay
 * (monitorEventLoopDelay, 1 ms resolution) during the runs — the mean of the
 * rounds' p50 and the worst round's p99 (monitors do not merge) — with their
 * plans per second.
 */
function delayRow(name: string, role: Row['role'], rounds: Sample[], histograms: IntervalHistogram[], baseline?: Row): Row {
  const row = toRow(name, role, rounds, baseline, 'p50/p99: event-loop delay (mean p50, worst p99 of the rounds), not request latency');
  const ms = (nanoseconds: number) => Math.round(nanoseconds / 1e3) / 1e3;
  row.p50Ms = ms(histograms.reduce((sum, histogram) => sum + histogram.percentile(50), 0) / histograms.length);
  row.p99Ms = ms(Math.max(...histograms.map((histogram) => histogram.percentile(99))));
  if (baseline && row.ratio) {
    row.ratio.p50 = baseline.p50Ms ? Math.round((row.p50Ms / baseline.p50Ms) * 1000) / 1000 : undefined;
    row.ratio.p99 = baseline.p99Ms ? Math.round((row.p99Ms / baseline.p99Ms) * 1000) / 1000 : undefined;
  }
  return row;
}

/** stop_times.txt out of the zip, inflated, split into lines, both times parsed: the floor of reading the feed. */
async function scanStopTimes(file: string): Promise<number> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName !== 'stop_times.txt') continue;
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      let rows = 0;
      for (const line of Buffer.concat(chunks).toString('utf8').split('\n').slice(1)) {
        if (line.trim() === '') continue;
        const fields = line.split(',');
        if (parseGtfsTime(fields[1]) !== null && parseGtfsTime(fields[2]) !== null) rows++;
      }
      return rows;
    }
    return 0;
  } finally {
    zip.close();
  }
}

/** For a pair of stops: every stop time scanned once for a trip calling at the first and later at the second. */
function directScan(network: TransitNetwork): (from: number, to: number) => number {
  const rows: Array<{ trip: number; stop: number; position: number }> = [];
  for (const trip of network.trips) network.patterns[trip.pattern].stops.forEach((stop, position) => rows.push({ trip: trip.index, stop, position }));
  return (from, to) => {
    const boarded = new Map<number, number>();
    let found = 0;
    for (const row of rows) {
      if (row.stop === from) boarded.set(row.trip, row.position);
      else if (row.stop === to && (boarded.get(row.trip) ?? Infinity) < row.position) found++;
    }
    return found;
  };
}

function measure<T>(items: readonly T[], run: (item: T) => void): Sample {
  const latenciesMs: number[] = [];
  const started = performance.now();
  for (const item of items) {
    const t0 = performance.now();
    run(item);
    latenciesMs.push(performance.now() - t0);
  }
  return { ops: items.length, seconds: (performance.now() - started) / 1000, latenciesMs };
}

function single(ms: number): Sample {
  return { ops: 1, seconds: ms / 1000, latenciesMs: [ms] };
}
