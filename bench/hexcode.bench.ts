import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { QueryBus } from '@nestjs/cqrs';
import { cellToLatLng, latLngToCell } from 'h3-js';
import { serveHttp, type RunningHttp } from '../apps/api/src/serve.js';
import { AddressingModule, bulkAnswerChunks, cellFromHexCode, hexCodeForPoint, hexCodeFromCell, pointForHexCode } from '../libs/addressing/src/index.js';
import { LookupAnswerSchema, ReverseAnswerSchema, ReverseHandler, ReverseQuery } from '../libs/addressing/src/testing/benchmarked.js';
import { answerWriterSchema, closeBackends, FileDatasetStore, referenceRoot, type Answer, type Runtime } from '../libs/platform/src/index.js';
import { PingsRecordedSchema } from '../libs/monitoring/src/testing/benchmarked.js';
import { Gazetteer, PlacesModule } from '../libs/places/src/index.js';
import { PlaceSearchAnswerSchema } from '../libs/places/src/testing/benchmarked.js';
import { RoadNetwork, RoutingModule } from '../libs/routing/src/index.js';
import { PlanRouteAnswerSchema } from '../libs/routing/src/testing/benchmarked.js';
import { appRoot, DEFAULT_PACK } from '../libs/starter/src/index.js';
import { importStarterData } from '../libs/starter/src/testing/benchmarked.js';
import { BenchApiModule, openBenchRuntime } from './http-bench.module.js';
import { addToTally, emptyTally, invalidNote, issueKey, loadSample, runLoad, statusCheck, statusMix, type LoadSettings, type MeasuredLoad, type StatusTally } from './load.js';
import { toRow, type Check, type Row, type Sample, type Section } from './report.js';
import { seededRandom } from '../libs/platform/src/testing/seeded-random.js';

/**
 * Hex codes (ADR 0009), every figure against a baseline in the same run:
 * - the codec against raw h3-js: hexCodeForPoint vs latLngToCell (what a code
 *   adds to finding the cell), pointForHexCode vs cellToLatLng;
 * - bulk coding: bulkAnswerChunks (validation, coding, JSON text) against a
 *   bare loop of latLngToCell over the same points;
 * - HTTP: GET /v2/reverse and /v2/lookup on the real pipeline (key, quota,
 *   audit) against a bare Fastify handler computing the same answer with
 *   h3-js alone, loaded by autocannon in a child process; and POST
 *   /v2/hexcode/bulk (1,000 points per request) in items per second against
 *   a bare handler that codes them with h3-js and answers one JSON buffer,
 *   loaded by autocannon in a child process too (4 connections), each
 *   request with the next of enough enterprise keys that no key's daily
 *   quota of items is met (issue 49: a bulk counts its items);
 * - reverse with `address` (issue 28, item 7): a second service with the
 *   starter pack's places, boundaries, landmarks and roads loaded, against the
 *   same bare handler and beside reverse on the service without places;
 * - the schema writers (issue 28, item 3; ADR 40): reverse and route (the
 *   routes that keep them) on that service with `schemaWriters` on against its
 *   twin with every answer through JSON.stringify, over HTTP in CPU per
 *   request; and the reverse, lookup, search, route and pings answers written
 *   in process by both (lookup, search and pings were measured over HTTP too
 *   and did not keep the writer: ADR 40 has the figures);
 * - the bus (issue 25, docs/adr/0015): `QueryBus.execute(new ReverseQuery(…))`
 *   against the reverse handler's own `execute`, in this process, paired and
 *   interleaved, in CPU µs per call.
 */

export interface HexcodeBenchOptions extends LoadSettings {
  /** Points per codec measurement. */
  points: number;
  rounds: number;
  /** Paired rounds of the bus against the direct handler call, and calls per side per round. */
  busRounds: number;
  busCalls: number;
  progress: (line: string) => void;
}

const BULK_ITEMS = 1000;
/** Bulk requests in flight: two keys' worth of EXPENSIVE_CONCURRENCY_PER_KEY, as the bench always sent. */
const BULK_CONNECTIONS = 4;
/** An enterprise key's daily quota, in items (libs/accounts quota.ts): a bulk request counts its items against it. */
const KEY_DAILY_ITEMS = 100_000;
/** Items per second no bulk run reaches on this machine (three times the fastest bare figure recorded, 322k/s): keys are issued to fit it. */
const BULK_ITEMS_PER_SECOND_CEILING = 1_000_000;
/** Issue 49: bulk hex coding per item at least this share of the bare handler's. */
const BULK_GOAL = 0.5;
/** `BENCH_HEXCODE_ONLY=bulk`: the codec rows and the bulk rows alone (no bus, starter services, GET loads or writers). */
const bulkOnly = process.env.BENCH_HEXCODE_ONLY === 'bulk';

export async function runHexcodeBench(options: HexcodeBenchOptions): Promise<Section> {
  const rows: Row[] = [];
  const checks: Check[] = [];
  const points = randomPoints(options.points, 42);
  const cells = points.map(([lat, lng]) => latLngToCell(lat, lng, 13));
  const codes = cells.map(hexCodeFromCell);
  checks.push({
    name: 'codec round trip over the benchmark points',
    ok: codes.every((code, i) => cellFromHexCode(code) === cells[i]),
    detail: `${codes.length} resolution-13 codes decode to their cells`,
  });

  const codec: Record<string, Sample[]> = { latLngToCell: [], hexCodeForPoint: [], cellToLatLng: [], pointForHexCode: [], bareBulk: [], bulk: [] };
  let sink = 0;
  const bulkItems = points.map(([lat, lng]) => ({ lat, lng }));
  for (let round = 0; round < options.rounds; round++) {
    codec.latLngToCell.push(time(points.length, () => points.forEach(([lat, lng]) => (sink += latLngToCell(lat, lng, 13).length))));
    codec.hexCodeForPoint.push(time(points.length, () => points.forEach(([lat, lng]) => (sink += hexCodeForPoint(lat, lng).length))));
    codec.cellToLatLng.push(time(cells.length, () => cells.forEach((cell) => (sink += cellToLatLng(cell)[0]))));
    codec.pointForHexCode.push(time(codes.length, () => codes.forEach((code) => (sink += pointForHexCode(code).lat))));
    codec.bareBulk.push(time(points.length, () => (sink += JSON.stringify(points.map(([lat, lng]) => latLngToCell(lat, lng, 13))).length)));
    codec.bulk.push(time(bulkItems.length, () => {
      for (const chunk of bulkAnswerChunks(bulkItems, 13)) sink += chunk.length;
    }));
    options.progress(`hexcode codec round ${round + 1}/${options.rounds} done (${sink > 0 ? 'ok' : ''})`);
  }
  const encodeBase = toRow('h3-js latLngToCell (res 13)', 'baseline', codec.latLngToCell);
  const decodeBase = toRow('h3-js cellToLatLng', 'baseline', codec.cellToLatLng);
  const bulkBase = toRow('bare loop: latLngToCell + JSON.stringify of the cells', 'baseline', codec.bareBulk);
  rows.push(
    encodeBase,
    toRow('hexCodeForPoint (validate, latLngToCell, encode)', 'ours', codec.hexCodeForPoint, encodeBase),
    decodeBase,
    toRow('pointForHexCode (parse, check, decode, cellToLatLng)', 'ours', codec.pointForHexCode, decodeBase),
    bulkBase,
    toRow('bulkAnswerChunks, points → codes (per item)', 'ours', codec.bulk, bulkBase),
  );

  rows.push(...(await httpRows(options, points, codes, checks)));
  return {
    id: 'hexcode',
    title: 'Hex codes: codec vs raw h3-js (in process), HTTP reverse (with and without address)/lookup/bulk vs bare Fastify handlers, schema writers vs JSON.stringify (ratio = row ÷ the row named on the right)',
    unit: 'op',
    settings: {
      points: options.points,
      rounds: options.rounds,
      connections: options.connections,
      seconds_per_round: options.seconds,
      bulk_items_per_request: BULK_ITEMS,
      note: 'codec rows: one op = one point or code; HTTP rows: one op = one request, except bulk rows, where one op = one item',
    },
    rows,
    checks,
  };
}

async function httpRows(options: HexcodeBenchOptions, points: Array<[number, number]>, codes: string[], checks: Check[]): Promise<Row[]> {
  const [lat, lng] = points[0];
  const bare = Fastify({ bodyLimit: 1024 * 1024 });
  bare.get('/reverse', async (request) => {
    const query = request.query as { lat: string; lng: string };
    const cell = latLngToCell(Number(query.lat), Number(query.lng), 13);
    return { success: true, data: { cell } };
  });
  bare.get('/lookup', async (request) => {
    const [a, b] = cellToLatLng((request.query as { cell: string }).cell);
    return { success: true, data: { lat: a, lng: b } };
  });
  bare.post('/bulk', async (request) => {
    const { items } = request.body as { items: Array<{ lat: number; lng: number }> };
    return { success: true, data: { items: items.map((item) => latLngToCell(item.lat, item.lng, 13)) } };
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;

  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-hexcode-'));
  const adminKey = randomBytes(24).toString('base64url');
  let runtime: Runtime | undefined;
  let served: RunningHttp | undefined;
  let full: StarterService | undefined;
  let fullJson: StarterService | undefined;
  try {
    // The request path is measured, not a key's per-minute rate (ADR 0060: an enterprise key's lookups are 50 × the
    // public throttle a minute, which a quiet machine outruns in a few seconds) nor the per-IP one.
    runtime = await openBenchRuntime(dataDir, adminKey, { THROTTLE_PUBLIC_PER_MINUTE: '100000000' });
    served = await serveHttp(runtime, BenchApiModule.forRoot(runtime, [AddressingModule]), 'bench', { signals: false });
    if (bulkOnly) return await bulkRows(options, served, adminKey, bareUrl, points, checks);
    const rows: Row[] = await busRows(options, served, points, checks);
    // Issue 28: the service with the starter pack's places, boundaries, landmarks and roads (reverse names the
    // place), once with the schema writers (ADR 40) and once with every answer through JSON.stringify.
    full = await serveWithStarter(adminKey, true);
    fullJson = await serveWithStarter(adminKey, false);
    const [aLat, aLng] = ACCRA_POINT;
    const routeBody = JSON.stringify({ from: { lat: 5.5496, lng: -0.2058 }, to: { lat: 5.5556, lng: -0.1969 }, mode: 'driving' });
    rows.push(...(await writerRows(options, fullJson.served.url, adminKey, routeBody, checks)));
    // What the idle services cost this process (timers, polls, followers), counted in every HTTP row's CPU below.
    const idleFrom = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = process.cpuUsage(idleFrom);
    rows.push(toRow('idle: this process with its three services and no load (op = second of wall time)', 'reference', [{ ops: 2, seconds: 2, latenciesMs: [], cpuMicros: idle.user + idle.system }]));
    const cases: Array<{ name: string; targets: Target[] }> = [
      {
        name: 'reverse',
        targets: [
          { id: 'bare', label: 'bare Fastify + h3-js, reverse', url: `${bareUrl}/reverse?lat=${aLat}&lng=${aLng}` },
          { id: 'ours', label: 'GET /v2/reverse, key + quota + audit (no places loaded: address null)', url: `${served.url}/v2/reverse?lat=${aLat}&lng=${aLng}`, service: served.url, baseline: 'bare' },
          { id: 'address-json', label: 'GET /v2/reverse with address (starter pack), JSON.stringify', url: `${fullJson.served.url}/v2/reverse?lat=${aLat}&lng=${aLng}`, service: fullJson.served.url, baseline: 'bare' },
          { id: 'address', label: 'GET /v2/reverse with address (starter pack), schema writer', url: `${full.served.url}/v2/reverse?lat=${aLat}&lng=${aLng}`, service: full.served.url, baseline: 'bare' },
        ],
      },
      {
        name: 'lookup',
        targets: [
          { id: 'bare', label: 'bare Fastify + h3-js, lookup', url: `${bareUrl}/lookup?cell=${cellFromHexCode(codes[0])}` },
          { id: 'ours', label: 'GET /v2/lookup, key + quota + audit', url: `${served.url}/v2/lookup?address=${codes[0]}`, service: served.url, baseline: 'bare' },
        ],
      },
      {
        name: 'route',
        targets: [
          { id: 'json', label: 'POST /v2/route, Accra 1.5 km with steps (starter pack), JSON.stringify', url: `${fullJson.served.url}/v2/route`, service: fullJson.served.url, body: routeBody },
          { id: 'schema', label: 'POST /v2/route, Accra 1.5 km with steps (starter pack), schema writer', url: `${full.served.url}/v2/route`, service: full.served.url, body: routeBody, baseline: 'json' },
        ],
      },
    ];
    for (const testCase of cases) {
      const { targets } = testCase;
      const samples: Record<string, Sample[]> = Object.fromEntries(targets.map((target) => [target.id, []]));
      const tallies: Record<string, StatusTally> = Object.fromEntries(targets.map((target) => [target.id, emptyTally()]));
      for (let round = 0; round < options.rounds; round++) {
        for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
          // A key per run: one enterprise key's daily quota (100,000) must not end a run in 429s.
          const headers: Record<string, string> = target.service ? { 'x-api-key': await issueKey(target.service, adminKey, `bench-hexcode-${testCase.name}-${target.id}-${round}`) } : {};
          if (target.body) headers['content-type'] = 'application/json';
          const measured = await runLoad({ url: target.url, headers, method: target.body ? 'POST' : 'GET', body: target.body }, options);
          const { outcome, cpuMicros } = measured;
          samples[target.id].push(loadSample(measured));
          addToTally(tallies[target.id], outcome);
          const bad = outcome.non2xx + outcome.errors;
          options.progress(
            `hexcode ${target.label}, round ${round + 1}/${options.rounds}: ${Math.round(outcome.completed / outcome.seconds)} req/s, ` +
              `${(cpuMicros / Math.max(1, outcome.completed)).toFixed(1)} µs CPU/req` +
              (bad > 0 ? `  !! ${statusMix({ ...outcome }).text}` : ''),
          );
        }
      }
      for (const target of targets) checks.push(statusCheck(target.label, tallies[target.id]));
      const made: Record<string, Row> = {};
      // Baselines first (a target names one listed before it), then every row in the order listed.
      for (const target of targets) {
        made[target.id] = toRow(target.label, target.baseline ? 'ours' : 'baseline', samples[target.id], target.baseline ? made[target.baseline] : undefined, invalidNote(tallies[target.id]));
        rows.push(made[target.id]);
      }
      if (testCase.name === 'reverse') {
        const [baseline, ours, withAddress] = [made.bare, made.ours, made.address];
        checks.push({
          goal: true,
          // Ratios only (issue 49 withdrew absolute times): issue #19 asked ≤ 120 µs and ≥ 0.18×.
          name: 'issue 49: GET /v2/reverse with key, quota and audit ≥ 0.30× bare Fastify + h3-js, by req/s and by CPU per request',
          ok: (ours.ratio?.perSecond ?? 0) >= 0.3 && (ours.ratio?.perCpu ?? 0) >= 0.3,
          detail:
            `${ours.cpuUsPerOp} µs CPU/req (bare ${baseline.cpuUsPerOp}); ${ours.ratio?.perSecond.toFixed(2)}× req/s, ` +
            `${ours.ratio?.perCpu?.toFixed(2)}× by CPU per request`,
        });
        const asJson = made['address-json'];
        checks.push({
          goal: true,
          name: 'ADR 40: the schema writer costs no more CPU per request than JSON.stringify: GET /v2/reverse with address',
          ok: (asJson.cpuUsPerOp ?? 0) >= (withAddress.cpuUsPerOp ?? Infinity),
          detail: `${withAddress.cpuUsPerOp} vs ${asJson.cpuUsPerOp} µs CPU/req: ${((asJson.cpuUsPerOp ?? 0) / (withAddress.cpuUsPerOp ?? 1)).toFixed(3)}× by CPU, ${(withAddress.perSecond / asJson.perSecond).toFixed(3)}× req/s`,
        });
        const perRequest = (withAddress.cpuUsPerOp ?? Infinity) / (ours.cpuUsPerOp ?? 1);
        checks.push({
          goal: true,
          name: 'issue 28, item 7: GET /v2/reverse with address ≤ 2× the CPU per request of reverse without it',
          ok: perRequest <= 2,
          detail:
            `${withAddress.cpuUsPerOp} vs ${ours.cpuUsPerOp} µs CPU/req: ${perRequest.toFixed(2)}×; against bare Fastify + h3-js (${baseline.cpuUsPerOp} µs) ` +
            `${withAddress.ratio?.perCpu?.toFixed(2)}× with address, ${ours.ratio?.perCpu?.toFixed(2)}× without, by CPU per request ` +
            `(${withAddress.ratio?.perSecond.toFixed(2)}× / ${ours.ratio?.perSecond.toFixed(2)}× req/s)`,
        });
      }
    }
    writerVerdicts(rows, checks);

    rows.push(...(await bulkRows(options, served, adminKey, bareUrl, points, checks)));
    return rows;
  } finally {
    for (const service of [full, fullJson]) await service?.close();
    if (served) await served.close();
    else if (runtime) await closeBackends(runtime.backends);
    await bare.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * What `@nestjs/cqrs` adds to a query (issue 25: at most 2 µs of CPU per
 * request): the application's own QueryBus and ReverseHandler, the same
 * points, `busCalls` awaited calls per side per round, the sides alternating
 * which goes first. CPU is process.cpuUsage (user + system) around each side;
 * the difference is taken round by round, so a slower stretch of the machine
 * weighs on both sides of the pair it falls in.
 */
async function busRows(options: HexcodeBenchOptions, served: RunningHttp, points: Array<[number, number]>, checks: Check[]): Promise<Row[]> {
  const bus = served.app.get(QueryBus);
  const handler = served.app.get(ReverseHandler);
  const sides = {
    bus: (query: ReverseQuery) => bus.execute(query),
    direct: (query: ReverseQuery) => handler.execute(query),
  };
  let sink = 0;
  const side = async (run: (query: ReverseQuery) => Promise<{ code: string }>): Promise<Sample> => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < options.busCalls; i++) {
      const [lat, lng] = points[i % points.length];
      sink += (await run(new ReverseQuery(lat, lng))).code.length;
    }
    const used = process.cpuUsage(cpu);
    return { ops: options.busCalls, seconds: (performance.now() - started) / 1000, latenciesMs: [], cpuMicros: used.user + used.system };
  };
  // Warm both paths (JIT, h3-js's WebAssembly) before anything counts.
  await side(sides.bus);
  await side(sides.direct);
  const samples: Record<'bus' | 'direct', Sample[]> = { bus: [], direct: [] };
  const differences: number[] = [];
  for (let round = 0; round < options.busRounds; round++) {
    const order: Array<'bus' | 'direct'> = round % 2 === 0 ? ['bus', 'direct'] : ['direct', 'bus'];
    for (const name of order) samples[name].push(await side(sides[name]));
    const perCall = (sample: Sample) => (sample.cpuMicros ?? 0) / sample.ops;
    differences.push(perCall(samples.bus[round]) - perCall(samples.direct[round]));
  }
  const sorted = [...differences].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const direct = toRow("ReverseHandler.execute, called directly (in process, op = call)", 'baseline', samples.direct);
  const viaBus = toRow('QueryBus.execute(new ReverseQuery(…)) (in process, op = call)', 'ours', samples.bus, direct, `bus − direct per call: median ${median.toFixed(2)} µs CPU over ${differences.length} paired rounds`);
  options.progress(`hexcode bus pair: ${differences.map((d) => d.toFixed(2)).join(', ')} µs CPU per call (bus − direct, by round)${sink > 0 ? '' : ' !!'}`);
  checks.push({
    goal: true,
    name: 'issue 25: QueryBus costs at most 2 µs of CPU per request over the handler called directly',
    ok: median <= 2,
    detail: `median of ${differences.length} paired rounds ${median.toFixed(2)} µs (range ${sorted[0].toFixed(2)} to ${sorted[sorted.length - 1].toFixed(2)}); bus ${viaBus.cpuUsPerOp} µs, direct ${direct.cpuUsPerOp} µs CPU per call`,
  });
  return [direct, viaBus];
}

/**
 * POST /v2/hexcode/bulk against the bare handler, BULK_ITEMS points per
 * request, one op per item: autocannon in a child process (as every HTTP row
 * here; the in-process fetch loops this replaced parsed every answer on the
 * served process's own event loop), the server's CPU per item beside the
 * rate. Each request takes the next key of a set issued per run, enough
 * enterprise keys for BULK_ITEMS_PER_SECOND_CEILING over the whole run
 * without any key meeting its daily quota of items, so a 429 means a limit
 * other than the one the bench sizes for, and fails the run's status check.
 */
async function bulkRows(options: HexcodeBenchOptions, served: RunningHttp, adminKey: string, bareUrl: string, points: Array<[number, number]>, checks: Check[]): Promise<Row[]> {
  const body = JSON.stringify({ items: points.slice(0, BULK_ITEMS).map(([lat, lng]) => ({ lat, lng })) });
  const targets = [
    { id: 'bare', label: `bare Fastify + h3-js, bulk ${BULK_ITEMS} points per request (op = item)`, url: `${bareUrl}/bulk` },
    { id: 'ours', label: 'POST /v2/hexcode/bulk, key + quota + audit, off the event loop (op = item)', url: `${served.url}/v2/hexcode/bulk` },
  ] as const;
  // Outside the measured runs: both answer every item, with the same cell.
  const [bare, ours] = await Promise.all(
    targets.map(async (target) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(target.id === 'ours' ? { 'x-api-key': await issueKey(served.url, adminKey, 'bench-hexcode-bulk-check') } : {}) };
      const response = await fetch(target.url, { method: 'POST', headers, body });
      return { status: response.status, items: ((await response.json()) as { data?: { items?: unknown[] } }).data?.items ?? [] };
    }),
  );
  const sameCells = ours.items.length === BULK_ITEMS && ours.items.every((item, index) => cellFromHexCode((item as { code: string }).code) === bare.items[index]);
  checks.push({ name: 'bulk: every item coded, to the cell the bare handler finds', ok: bare.status === 200 && ours.status === 200 && sameCells, detail: `HTTP ${ours.status}, ${ours.items.length} of ${BULK_ITEMS} items (bare: HTTP ${bare.status})` });

  const requestsCeiling = Math.ceil((BULK_ITEMS_PER_SECOND_CEILING * (options.warmupSeconds + options.seconds)) / BULK_ITEMS);
  const keysPerRun = Math.ceil(requestsCeiling / (KEY_DAILY_ITEMS / BULK_ITEMS)) + 2 * BULK_CONNECTIONS;
  const samples: Record<string, Sample[]> = { bare: [], ours: [] };
  const tallies: Record<string, StatusTally> = { bare: emptyTally(), ours: emptyTally() };
  for (let round = 0; round < options.rounds; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
      const keys: string[] = [];
      if (target.id === 'ours') {
        for (let batch = 0; keys.length < keysPerRun; batch++) {
          const count = Math.min(8, keysPerRun - keys.length);
          keys.push(...(await Promise.all(Array.from({ length: count }, (_, index) => issueKey(served.url, adminKey, `bench-hexcode-bulk-${round}-${batch}-${index}`)))));
        }
      }
      const measured = await runLoad({ url: target.url, headers: { 'content-type': 'application/json' }, keys: target.id === 'ours' ? keys : undefined, method: 'POST', body }, { ...options, connections: BULK_CONNECTIONS });
      samples[target.id].push(itemSample(measured));
      addToTally(tallies[target.id], measured.outcome);
      const { outcome, cpuMicros } = measured;
      const bad = outcome.non2xx + outcome.errors;
      options.progress(
        `hexcode ${target.label}, round ${round + 1}/${options.rounds}: ${Math.round((outcome.completed * BULK_ITEMS) / outcome.seconds)} items/s, ` +
          `${(cpuMicros / Math.max(1, outcome.completed * BULK_ITEMS)).toFixed(2)} µs CPU/item` +
          (bad > 0 ? `  !! ${statusMix({ ...outcome }).text}` : ''),
      );
    }
  }
  for (const target of targets) checks.push(statusCheck(target.label, tallies[target.id]));
  const baseline = toRow(targets[0].label, 'baseline', samples.bare, undefined, invalidNote(tallies.bare));
  const row = toRow(targets[1].label, 'ours', samples.ours, baseline, invalidNote(tallies.ours));
  checks.push({
    goal: true,
    name: `issue 49: bulk hex coding at least ${BULK_GOAL}× the bare handler's items per second`,
    ok: (row.ratio?.perSecond ?? 0) >= BULK_GOAL,
    detail: `${row.perSecond} vs ${baseline.perSecond} items/s: ${row.ratio?.perSecond.toFixed(2)}× (by round ${row.perSecondByRound.join(', ')} vs ${baseline.perSecondByRound.join(', ')}); ${row.cpuUsPerOp} vs ${baseline.cpuUsPerOp} µs CPU per item: ${row.ratio?.perCpu?.toFixed(2)}× by CPU`,
  });
  return [baseline, row];
}

/** A bulk run in items: each completed request carried BULK_ITEMS of them (its latency stays the request's). */
function itemSample(measured: MeasuredLoad): Sample {
  const sample = loadSample(measured);
  return { ...sample, ops: sample.ops * BULK_ITEMS };
}

function time(ops: number, run: () => void): Sample {
  const started = performance.now();
  run();
  return { ops, seconds: (performance.now() - started) / 1000, latenciesMs: [] };
}

/** Deterministic points, uniform over Ghana's bounding box (where the codes will be used). */
function randomPoints(count: number, seed: number): Array<[number, number]> {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => [4.7 + next() * 6.5, -3.3 + next() * 4.5] as [number, number]);
}

/** Near Makola Market, Accra: the starter pack names its region, district, locality, road and landmark. */
const ACCRA_POINT: [number, number] = [5.5495, -0.2095];

interface Target {
  id: string;
  label: string;
  url: string;
  /** The service a key is issued on, per run; none for the bare handler. */
  service?: string;
  /** A JSON body: the target is loaded with POSTs. */
  body?: string;
  /** The id of the (earlier) target this row is divided by; none for a baseline. */
  baseline?: string;
}

interface StarterService {
  served: RunningHttp;
  close(): Promise<void>;
}

/**
 * The reverse, lookup, search and route slices over the starter pack's
 * places, boundaries, landmarks and roads (imported as STARTER_DATA does,
 * transit left out), with the schema writers on or off (ADR 40).
 */
async function serveWithStarter(adminKey: string, schemaWriters: boolean): Promise<StarterService> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-hexcode-starter-'));
  let runtime: Runtime | undefined;
  let served: RunningHttp | undefined;
  try {
    runtime = await openBenchRuntime(dataDir, adminKey, { THROTTLE_ROUTING_PER_MINUTE: '100000', THROTTLE_PUBLIC_PER_MINUTE: '100000000' });
    const reference = referenceRoot(runtime.config);
    const datasets = runtime.manifests.flatMap((manifest) => manifest.datasets ?? []).filter((declaration) => declaration.starter && declaration.starter.kind !== 'transit');
    await importStarterData(new FileDatasetStore(reference), path.join(appRoot(), DEFAULT_PACK), { datasets, lockDir: reference, log: { info: () => undefined } });
    const module = BenchApiModule.forRoot(runtime, [AddressingModule.withPlaces({ module: PlacesModule, provider: Gazetteer }, { module: RoutingModule, provider: RoadNetwork })]);
    served = await serveHttp(runtime, module, 'bench', { signals: false, schemaWriters });
    await served.app.get(Gazetteer, { strict: false }).reload();
    await served.app.get(RoadNetwork, { strict: false }).reload();
  } catch (error) {
    if (served) await served.close();
    else if (runtime) await closeBackends(runtime.backends);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const running = served;
  return {
    served: running,
    close: async () => {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The function Fastify compiles from a response schema: the one a route with that schema answers through. */
async function fastifyWriter(schema: object): Promise<(data: unknown) => string> {
  const app = Fastify();
  let writer: ((data: unknown) => string) | undefined;
  app.get('/', { schema: { response: { 200: schema } } }, async (_request, reply) => {
    writer = reply.getSerializationFunction('200') as (data: unknown) => string;
    return reply.type('application/json').send('{}');
  });
  await app.inject('/');
  await app.close();
  if (!writer) throw new Error('Fastify compiled no writer for the schema');
  return writer;
}

/**
 * In process, the writing alone (ADR 40): each opted-in answer as the service
 * gave it (the JSON twin, starter pack loaded; pings: the documented example)
 * through JSON.stringify and through the writer Fastify compiles from its
 * schema, in CPU µs per answer, rounds alternating which goes first.
 */
async function writerRows(options: HexcodeBenchOptions, url: string, adminKey: string, routeBody: string, checks: Check[]): Promise<Row[]> {
  const key = await issueKey(url, adminKey, 'bench-hexcode-writers');
  const answerOf = async (pathAndQuery: string, body?: string) => {
    const response = await fetch(`${url}${pathAndQuery}`, { method: body ? 'POST' : 'GET', headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) }, body });
    const parsed = (await response.json()) as { success: boolean; data: unknown };
    if (response.status !== 200) throw new Error(`${pathAndQuery}: HTTP ${response.status} ${JSON.stringify(parsed)}`);
    return parsed;
  };
  const [lat, lng] = ACCRA_POINT;
  const cases: Array<{ name: string; answer: Answer; body: { success: boolean; data: unknown } }> = [
    { name: 'reverse with address', answer: ReverseAnswerSchema, body: await answerOf(`/v2/reverse?lat=${lat}&lng=${lng}`) },
    { name: 'lookup', answer: LookupAnswerSchema, body: await answerOf(`/v2/lookup?address=${hexCodeForPoint(lat, lng)}`) },
    { name: 'search (10 results)', answer: PlaceSearchAnswerSchema, body: await answerOf('/v2/search?q=makola&limit=10') },
    { name: 'route with steps', answer: PlanRouteAnswerSchema, body: await answerOf('/v2/route', routeBody) },
    { name: 'pings (the documented 2-ping batch)', answer: PingsRecordedSchema, body: { success: true, data: PingsRecordedSchema.example } },
  ];
  const address = (cases[0].body.data as { address: { formatted: string | null } | null }).address;
  checks.push({ name: 'reverse names the point from the starter pack', ok: Boolean(address?.formatted), detail: `formatted: ${JSON.stringify(address?.formatted)}` });
  const rows: Row[] = [];
  let sink = 0;
  for (const testCase of cases) {
    const write = await fastifyWriter(answerWriterSchema(testCase.answer));
    const same = isDeepStrictEqual(JSON.parse(write(testCase.body)), JSON.parse(JSON.stringify(testCase.body)));
    checks.push({ name: `${testCase.name}: the schema writer writes what JSON.stringify writes`, ok: same, detail: `${JSON.stringify(testCase.body).length} bytes` });
    const sides = { json: () => (sink += JSON.stringify(testCase.body).length), writer: () => (sink += write(testCase.body).length) };
    const calls = Math.max(2000, Math.round(options.points / 10));
    // Warm both (the writer is compiled code the JIT has not seen yet).
    for (let i = 0; i < calls; i++) {
      sides.json();
      sides.writer();
    }
    const samples: Record<'json' | 'writer', Sample[]> = { json: [], writer: [] };
    for (let round = 0; round < options.rounds * 2; round++) {
      for (const side of (round % 2 === 0 ? ['json', 'writer'] : ['writer', 'json']) as Array<'json' | 'writer'>) {
        const cpu = process.cpuUsage();
        const sample = time(calls, () => {
          for (let i = 0; i < calls; i++) sides[side]();
        });
        const used = process.cpuUsage(cpu);
        samples[side].push({ ...sample, cpuMicros: used.user + used.system });
      }
    }
    const baseline = toRow(`JSON.stringify, ${testCase.name} answer (in process, op = answer)`, 'baseline', samples.json);
    rows.push(baseline, toRow(`schema writer (fast-json-stringify), ${testCase.name} answer`, 'ours', samples.writer, baseline));
  }
  options.progress(`hexcode writers in process done (${sink > 0 ? 'ok' : '!!'})`);
  return rows;
}

/** Which routes the schema writer pays on (ADR 40: kept only where it wins): over HTTP, CPU per request against the JSON twin. */
function writerVerdicts(rows: Row[], checks: Check[]): void {
  for (const row of rows) {
    // Over HTTP only: the in-process rows say what the writing alone costs, the request is what counts.
    if (!row.case.endsWith('schema writer') || !row.baseline?.endsWith('JSON.stringify')) continue;
    checks.push({
      goal: true,
      name: `ADR 40: the schema writer costs no more CPU per request than JSON.stringify: ${row.case.replace(/, schema writer$/, '')}`,
      ok: (row.ratio?.perCpu ?? 0) >= 1,
      detail: `${row.cpuUsPerOp} vs ${rows.find((other) => other.case === row.baseline)?.cpuUsPerOp} µs CPU/req: ${row.ratio?.perCpu?.toFixed(3)}× by CPU, ${row.ratio?.perSecond.toFixed(3)}× req/s`,
    });
  }
}
