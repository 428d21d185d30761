import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XmlDocument } from 'libxml2-wasm';
import { serveHttp, type RunningHttp } from '../apps/api/src/serve.js';
import { closeBackends, EmbeddedEventStore, EventRegistry, systemClock, type Runtime } from '../libs/platform/src/index.js';
import { WeatherModule, weatherManifest } from '../libs/weather/src/index.js';
import { AlertRecorder, capAlert, CapAlertView, importAlerts, readCap } from '../libs/weather/src/testing/benchmarked.js';
import { BenchApiModule, BenchController, openBenchRuntime } from './http-bench.module.js';
import { issueKey, loadSample, runLoad, type LoadSettings } from './load.js';
import { toRow, type Check, type Row, type Sample, type Section } from './report.js';

/**
 * The weather layer (issue #16, docs/adr/0026), two parts, each against a
 * baseline measured in the same run:
 * - CAP reading: readCap (libxml2 parse, the CAP 1.2 schema, the signature,
 *   the fields) and importAlerts onto the alert stream (the record-alerts command
 *   on the embedded event store), per document, against
 *   libxml2's bare parse of the same documents (the least any reader pays).
 *   The documents: synthetic alerts over Ghana and, when `../shared/data/cap`
 *   is there, the three real signed WMO alerts (880 KB, 28 KB, 4 KB).
 * - GET /v2/weather/alerts?lat&lng with `alerts` active alerts in the book,
 *   loaded by autocannon, against the trivial route of the same Nest pipeline
 *   with the same kind of key (`/v2/bench/public`), so the ratio is the
 *   weather handler's own price (the fold check, the point-in-polygon scan,
 *   the GeoJSON answer). Keyed requests: the public per-IP ceiling would
 *   otherwise refuse the load.
 */
export interface WeatherBenchOptions extends LoadSettings {
  documents: number;
  alerts: number;
  rounds: number;
  progress: (line: string) => void;
}

const SHARED = fileURLToPath(new URL('../../../shared/data/cap/', import.meta.url));
const REAL = ['bf_valid.xml', 'tg_valid.xml', 'sc_valid.xml'];
const FAR_FUTURE = '2099-01-01T00:00:00+00:00';
/** Ghana, roughly: alerts are 0.2° squares spread over it. */
const GHANA = { minLat: 4.8, maxLat: 11, minLng: -3.2, maxLng: 1.1 };
/** Accra: the query point. */
const POINT = { lat: 5.6037, lng: -0.187 };

function syntheticAlerts(count: number, prefix: string): string[] {
  let seed = 20_261_123;
  const random = () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647);
  return Array.from({ length: count }, (_, index) => {
    // One in 25 over Accra, so the query point finds a handful.
    const lat = index % 25 === 0 ? POINT.lat - 0.1 : GHANA.minLat + random() * (GHANA.maxLat - GHANA.minLat);
    const lng = index % 25 === 0 ? POINT.lng - 0.1 : GHANA.minLng + random() * (GHANA.maxLng - GHANA.minLng);
    const ring = [
      [lat, lng],
      [lat, lng + 0.2],
      [lat + 0.2, lng + 0.2],
      [lat + 0.2, lng],
      [lat, lng],
    ]
      .map(([a, b]) => `${a.toFixed(4)},${b.toFixed(4)}`)
      .join(' ');
    return capAlert({ identifier: `${prefix}-${index}`, event: index % 3 === 0 ? 'Heavy Rain' : 'Thunderstorm', expires: FAR_FUTURE, polygon: ring });
  });
}

async function timeEachAsync(documents: string[], work: (xml: string) => Promise<unknown>): Promise<Sample> {
  const latenciesMs: number[] = [];
  const started = performance.now();
  for (const xml of documents) {
    const begun = performance.now();
    await work(xml);
    latenciesMs.push(performance.now() - begun);
  }
  return { ops: documents.length, seconds: (performance.now() - started) / 1000, latenciesMs };
}

/** The alert stream of an embedded event store in `dir`, recorded to through the pipeline, read by the follower view. */
async function alertStream(dir: string) {
  const events = await EmbeddedEventStore.open(dir);
  const registry = new EventRegistry().register(...weatherManifest.events);
  const view = new CapAlertView(events, registry);
  await view.start();
  return { events, view, recorder: AlertRecorder.onPipeline(events, registry, systemClock) };
}

function timeEach(documents: string[], work: (xml: string) => void): Sample {
  const latenciesMs: number[] = [];
  const started = performance.now();
  for (const xml of documents) {
    const begun = performance.now();
    work(xml);
    latenciesMs.push(performance.now() - begun);
  }
  return { ops: documents.length, seconds: (performance.now() - started) / 1000, latenciesMs };
}

export async function runWeatherBench(options: WeatherBenchOptions): Promise<Section> {
  const parent = mkdtempSync(path.join(tmpdir(), 'bench-weather-'));
  const rows: Row[] = [];
  const checks: Check[] = [];
  const real = REAL.map((name) => path.join(SHARED, name)).filter(existsSync).map((file) => readFileSync(file, 'utf8'));

  // CAP reading and import, per document.
  const synthetic = syntheticAlerts(options.documents, 'SYN');
  for (const xml of synthetic.slice(0, 20)) readCap(xml);
  const samples: Record<'parse' | 'read' | 'import' | 'parseReal' | 'readReal', Sample[]> = { parse: [], read: [], import: [], parseReal: [], readReal: [] };
  for (let round = 0; round < options.rounds; round++) {
    options.progress(`weather: CAP reading, round ${round + 1}/${options.rounds}`);
    samples.parse.push(timeEach(synthetic, (xml) => XmlDocument.fromString(xml).dispose()));
    samples.read.push(timeEach(synthetic, (xml) => readCap(xml)));
    const stream = await alertStream(path.join(parent, `import-${round}`));
    const documents = syntheticAlerts(options.documents, `IMP${round}`);
    samples.import.push(await timeEachAsync(documents, (xml) => importAlerts(stream.recorder, [{ source: 'bench', xml }])));
    await stream.view.catchUp();
    if (round === 0) checks.push({ name: 'every synthetic alert imported', ok: stream.view.current().size === options.documents, detail: `${stream.view.current().size} of ${options.documents} in the alert book` });
    await stream.view.onModuleDestroy();
    await stream.events.close();
    if (real.length > 0) {
      const repeated = Array.from({ length: 5 }, () => real).flat();
      samples.parseReal.push(timeEach(repeated, (xml) => XmlDocument.fromString(xml).dispose()));
      samples.readReal.push(timeEach(repeated, (xml) => readCap(xml)));
    }
  }
  const parseRow = toRow('libxml2 parse only, synthetic 1.3 KB alert (doc)', 'baseline', samples.parse);
  rows.push(
    parseRow,
    toRow('readCap: parse + CAP 1.2 schema + fields (doc)', 'ours', samples.read, parseRow),
    toRow('importAlerts: readCap + record-alerts command, embedded event store (doc)', 'ours', samples.import, parseRow),
  );
  if (real.length > 0) {
    const parseReal = toRow(`libxml2 parse only, the ${real.length} real signed WMO alerts (doc)`, 'baseline', samples.parseReal);
    const readReal = toRow('readCap with ECDSA/C14N 1.1 signature check, real alerts (doc)', 'ours', samples.readReal, parseReal);
    rows.push(parseReal, readReal);
    checks.push({ name: 'the real signed alerts verify', ok: real.every((xml) => readCap(xml).signature === 'valid'), detail: `${real.length} alerts, signature "valid"` });
  } else {
    checks.push({ name: 'real alerts', ok: true, detail: `skipped: ${SHARED} is absent` });
  }

  // GET /v2/weather/alerts?lat&lng against the trivial route of the same pipeline.
  const dataDir = path.join(parent, 'data');
  const seeded = await alertStream(path.join(dataDir, 'events'));
  const outcome = await importAlerts(seeded.recorder, syntheticAlerts(options.alerts, 'HTTP').map((xml) => ({ source: 'bench', xml })));
  await seeded.view.onModuleDestroy();
  await seeded.events.close();
  const adminKey = randomBytes(24).toString('base64url');
  let runtime: Runtime | undefined;
  let served: RunningHttp | undefined;
  try {
    runtime = await openBenchRuntime(dataDir, adminKey);
    served = await serveHttp(runtime, BenchApiModule.forRoot(runtime, [WeatherModule], [BenchController]), 'bench', { signals: false });
    const alertsUrl = `${served.url}/v2/weather/alerts?lat=${POINT.lat}&lng=${POINT.lng}`;
    const key = await issueKey(served.url, adminKey, 'bench-weather');
    const preflight = await fetch(alertsUrl, { headers: { 'x-api-key': key } });
    const found = preflight.status === 200 ? ((await preflight.json()) as { data: { features: unknown[] } }).data.features.length : -1;
    checks.push({ name: 'preflight', ok: found > 0, detail: `${outcome.accepted} alerts in the book; HTTP ${preflight.status}, ${found} covering Accra` });

    const targets = [
      { id: 'pipeline', label: 'Nest pipeline, API key, trivial @Public() route (req)', url: `${served.url}/v2/bench/public`, headers: { 'x-api-key': key } },
      { id: 'alerts', label: `GET /v2/weather/alerts?lat&lng, ${options.alerts} alerts in the book (req)`, url: alertsUrl, headers: { 'x-api-key': key } },
    ] as const;
    const http: Record<(typeof targets)[number]['id'], Sample[]> = { pipeline: [], alerts: [] };
    const bad: Record<string, number> = {};
    for (let round = 0; round < options.rounds; round++) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        const measured = await runLoad(target, options);
        http[target.id].push(loadSample(measured));
        for (const [code, count] of Object.entries(measured.outcome.statusCodes)) if (code !== '200') bad[`${target.id} ${code}`] = (bad[`${target.id} ${code}`] ?? 0) + count;
        options.progress(`weather ${target.label}, round ${round + 1}/${options.rounds}: ${Math.round(measured.outcome.completed / measured.outcome.seconds)} req/s`);
      }
    }
    const pipelineRow = toRow(targets[0].label, 'baseline', http.pipeline);
    rows.push(pipelineRow, toRow(targets[1].label, 'ours', http.alerts, pipelineRow));
    checks.push({ name: 'every response 200', ok: Object.keys(bad).length === 0, detail: Object.keys(bad).length === 0 ? 'yes' : JSON.stringify(bad) });
  } finally {
    if (served) await served.close();
    else if (runtime) await closeBackends(runtime.backends);
    rmSync(parent, { recursive: true, force: true });
  }
  return {
    id: 'weather',
    title: `weather: CAP reading per document and GET /v2/weather/alerts per request (autocannon, ${options.connections} connections; ratio = row ÷ the row named on the right)`,
    unit: 'op',
    settings: { documents: options.documents, alerts: options.alerts, rounds: options.rounds, connections: options.connections, seconds_per_round: options.seconds, real_alerts: real.length },
    rows,
    checks,
  };
}
