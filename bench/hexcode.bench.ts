import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { QueryBus } from '@nestjs/cqrs';
import { cellToLatLng, latLngToCell } from 'h3-js';
import { serveHttp, type RunningHttp } from '../apps/api/src/serve.js';
import { AddressingModule, bulkAnswerChunks, cellFromHexCode, hexCodeForPoint, hexCodeFromCell, pointForHexCode } from '../libs/addressing/src/index.js';
import { ReverseHandler, ReverseQuery } from '../libs/addressing/src/queries/reverse/reverse.handler.js';
import { closeBackends, type Runtime } from '../libs/platform/src/index.js';
import { BenchApiModule, openBenchRuntime } from './http-bench.module.js';
import { addToTally, drive, emptyTally, invalidNote, issueKey, loadSample, runLoad, statusCheck, statusMix, type LoadSettings, type StatusTally } from './load.js';
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
 *   a bare handler that codes them with h3-js and answers one JSON buffer;
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
    title: 'Hex codes: codec vs raw h3-js (in process), HTTP reverse/lookup/bulk vs bare Fastify handlers (ratio = row ÷ the row named on the right)',
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
  const bulkBody = JSON.stringify({ items: points.slice(0, BULK_ITEMS).map(([a, b]) => ({ lat: a, lng: b })) });
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
  try {
    runtime = await openBenchRuntime(dataDir, adminKey);
    served = await serveHttp(runtime, BenchApiModule.forRoot(runtime, [AddressingModule]), 'bench', { signals: false });
    const rows: Row[] = await busRows(options, served, points, checks);
    const cases = [
      { name: 'reverse', bare: `${bareUrl}/reverse?lat=${lat}&lng=${lng}`, ours: `${served.url}/v2/reverse?lat=${lat}&lng=${lng}` },
      { name: 'lookup', bare: `${bareUrl}/lookup?cell=${cellFromHexCode(codes[0])}`, ours: `${served.url}/v2/lookup?address=${codes[0]}` },
    ];
    for (const testCase of cases) {
      const targets: Array<{ id: string; label: string; url: string; headers: Record<string, string> }> = [
        { id: 'bare', label: `bare Fastify + h3-js, ${testCase.name}`, url: testCase.bare, headers: {} },
        { id: 'ours', label: `GET /v2/${testCase.name}, key + quota + audit`, url: testCase.ours, headers: {} },
      ];
      const samples: Record<string, Sample[]> = { bare: [], ours: [] };
      const tallies: Record<string, StatusTally> = { bare: emptyTally(), ours: emptyTally() };
      for (let round = 0; round < options.rounds; round++) {
        for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
          // A key per run: one enterprise key's daily quota (100,000) must not end a run in 429s.
          const headers = target.id === 'ours' ? { 'x-api-key': await issueKey(served.url, adminKey, `bench-hexcode-${testCase.name}-${round}`) } : target.headers;
          const measured = await runLoad({ url: target.url, headers }, options);
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
      const baseline = toRow(targets[0].label, 'baseline', samples.bare, undefined, invalidNote(tallies.bare));
      const ours = toRow(targets[1].label, 'ours', samples.ours, baseline, invalidNote(tallies.ours));
      rows.push(baseline, ours);
      if (testCase.name === 'reverse') {
        checks.push({
          goal: true,
          name: 'issue #19: GET /v2/reverse with key, quota and audit ≤ 120 µs CPU per request and ≥ 0.18× bare Fastify + h3-js',
          ok: (ours.cpuUsPerOp ?? Infinity) <= 120 && (ours.ratio?.perSecond ?? 0) >= 0.18,
          detail:
            `${ours.cpuUsPerOp} µs CPU/req (bare ${baseline.cpuUsPerOp}); ${ours.ratio?.perSecond.toFixed(2)}× req/s, ` +
            `${ours.ratio?.perCpu?.toFixed(2)}× by CPU per request`,
        });
      }
    }

    // Bulk: bench/http-load.ts sends GETs only, so a few fetch loops in this process post the batches;
    // both targets share the same client cost, so the ratio still compares the servers.
    const bulkTargets: Array<{ id: string; label: string; url: string; headers: Record<string, string> }> = [
      { id: 'bare', label: `bare Fastify + h3-js, bulk ${BULK_ITEMS} points per request (op = item)`, url: `${bareUrl}/bulk`, headers: { 'content-type': 'application/json' } },
      { id: 'ours', label: `POST /v2/hexcode/bulk, key + quota + audit, off the event loop (op = item)`, url: `${served.url}/v2/hexcode/bulk`, headers: { 'content-type': 'application/json' } },
    ];
    const bulkSamples: Record<string, Sample[]> = { bare: [], ours: [] };
    let bulkBad = 0;
    for (let round = 0; round < options.rounds; round++) {
      for (const target of round % 2 === 0 ? bulkTargets : [...bulkTargets].reverse()) {
        // A key per client and round: one key's quota (100,000 items a day) and in-flight cap (2) would measure refusals.
        const keys = target.id === 'ours' ? await Promise.all(Array.from({ length: 4 }, (_, client) => issueKey(served!.url, adminKey, `bench-hexcode-bulk-${round}-${client}`))) : [];
        const measured = await postLoop(target.url, target.headers, keys, bulkBody, 4, options.seconds);
        bulkBad += measured.bad;
        bulkSamples[target.id].push(measured.sample);
        options.progress(`hexcode ${target.label}, round ${round + 1}/${options.rounds}: ${Math.round(measured.sample.ops / measured.sample.seconds)} items/s`);
      }
    }
    checks.push({ name: 'bulk: every response 200 with every item coded', ok: bulkBad === 0, detail: `${bulkBad} bad responses` });
    const bulkBaseline = toRow(bulkTargets[0].label, 'baseline', bulkSamples.bare);
    rows.push(bulkBaseline, toRow(bulkTargets[1].label, 'ours', bulkSamples.ours, bulkBaseline));
    return rows;
  } finally {
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
 * `concurrency` loops posting the same body for `seconds`; a response counts, for its BULK_ITEMS items,
 * when it is 200 and its JSON holds every item.
 */
/**
 * `keys`: one per client, each request taking a key no other request holds (a key has at most
 * EXPENSIVE_CONCURRENCY_PER_KEY bulk calls in flight, and its own daily quota of items).
 */
async function postLoop(url: string, headers: Record<string, string>, keys: string[], body: string, concurrency: number, seconds: number): Promise<{ sample: Sample; bad: number }> {
  let bad = 0;
  const free = [...keys];
  const sample = await drive(concurrency, seconds, async () => {
    const key = free.pop();
    const response = await fetch(url, { method: 'POST', headers: key ? { ...headers, 'x-api-key': key } : headers, body }).finally(() => {
      if (key) free.push(key);
    });
    const answer = (await response.json()) as { data?: { items?: unknown[] } };
    if (response.status === 200 && answer.data?.items?.length === BULK_ITEMS) return BULK_ITEMS;
    bad++;
    return 0;
  });
  return { sample, bad };
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
