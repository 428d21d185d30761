import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBankingBench } from './banking.bench.js';
import { runAuditSizeBench } from './audit-size.bench.js';
import { runEventStoreBench } from './event-store.bench.js';
import { runAuditCatchUpBench, runFairnessBench } from './fairness.bench.js';
import { runGeofenceIndexBench } from './geofence-index.bench.js';
import { runHexcodeBench } from './hexcode.bench.js';
import { runHttpBench } from './http.bench.js';
import { runIdentityKycBench } from './identity-kyc.bench.js';
import { runIdentityBench } from './identity.bench.js';
import { runLocatorBench } from './locator.bench.js';
import { runPingsBench } from './pings.bench.js';
import { renderSection, type Section } from './report.js';
import { runRestartBench } from './restart.bench.js';
import { runRoutingBench } from './routing.bench.js';
import { runScaleBench } from './scale.bench.js';
import { runSearchBench } from './search.bench.js';
import { runTilesBench } from './tiles.bench.js';
import { runTransitBench } from './transit.bench.js';
import { runTrafficBench } from './traffic.bench.js';
import { runWeatherBench } from './weather.bench.js';

/**
 * `npm run bench [-- event-store|http]`: every figure next to a baseline
 * measured in the same run, as a ratio (the machine is small and noisy, so only
 * ratios compare across runs). `BENCH_QUICK=1` shortens every phase for a smoke
 * run. Prints a table; writes bench/results/latest.json. Exits 1 when a check
 * fails (a non-2xx answer, an audit chain that does not verify); a missed
 * performance goal is reported but does not fail the run.
 */

const quick = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';
const started = performance.now();
const progress = (line: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}\n`);
/** The autocannon phases of an HTTP section: `seconds` is a full run's measured phase per round. */
const loadPhases = (connections: number, seconds: number) => ({ connections, warmupSeconds: quick ? 0.5 : 1, seconds: quick ? 1.5 : seconds, rounds: 2, progress });

const benches: Record<string, () => Promise<Section | Section[]>> = {
  'event-store': () =>
    runEventStoreBench({
      seconds: quick ? 0.5 : 2.5,
      rounds: 2,
      writers: [16, 128],
      burstSize: 1000,
      progress,
    }),
  http: () => runHttpBench(loadPhases(50, 5)),
  'audit-size': () => runAuditSizeBench({ entries: quick ? 5000 : 20_000, progress }),
  // At 50 connections a closed-loop client is bound by latency: the audited route holds
  // each answer for its group-committed fsync. With more clients waiting, batches grow
  // and the capacity of the audited path shows.
  'http-saturated': () => runHttpBench(loadPhases(200, 4)),
  pings: () =>
    runPingsBench({
      customers: quick ? 1000 : 10_000,
      fences: quick ? 1000 : 10_000,
      clients: 16,
      batches: [1, 100],
      seconds: quick ? 1 : 4,
      rounds: 2,
      busPair: { blocks: quick ? 40 : 200, perBlock: quick ? 50 : 100 },
      progress,
    }),
  tiles: () => runTilesBench(loadPhases(50, 4)),
  search: () => runSearchBench({ queriesPerCase: quick ? 300 : 2000, rounds: 2, progress }),
  'geofence-index': () => runGeofenceIndexBench({ fenceCounts: [10, 10_000], seconds: quick ? 0.5 : 2, rounds: 2, progress }),
  hexcode: () => runHexcodeBench({ points: quick ? 20_000 : 200_000, busRounds: quick ? 6 : 20, busCalls: quick ? 20_000 : 100_000, ...loadPhases(50, 4) }),
  // Certificates per second, and a KYC verification over 30 days of recorded pings (issue 26).
  identity: async () => [await runIdentityBench({ seconds: quick ? 0.3 : 2, rounds: 2, progress }), await runIdentityKycBench({ verifications: quick ? 20 : 100, rounds: 2, progress })],
  locator: () => runLocatorBench({ owners: quick ? 200 : 1000, history: quick ? 5 : 20, clients: 16, seconds: quick ? 1 : 3, rounds: 2, progress }),
  transit: () => runTransitBench({ queries: quick ? 200 : 1000, imports: quick ? 1 : 3, rounds: 2, progress }),
  traffic: () => runTrafficBench({ pairs: quick ? 100 : 400, rounds: 2, seconds: quick ? 1 : 3, progress }),
  routing: () =>
    runRoutingBench({
      pairs: quick ? 200 : 1000,
      rounds: 2,
      gridSize: quick ? 300 : 1000,
      scalePairs: quick ? 200 : 1000,
      graphhopperUrl: process.env.GRAPHHOPPER_URL,
      skipScale: process.env.BENCH_ROUTING_SKIP_SCALE === '1',
      skipAccra: process.env.BENCH_ROUTING_SKIP_ACCRA === '1',
      skipGhana: process.env.BENCH_ROUTING_SKIP_GHANA === '1',
      progress,
    }),
  banking: () => runBankingBench({ loans: quick ? 10_000 : 100_000, rounds: 2, progress }),
  // Issue 31: the victim's /health and /v2/usage under each attack, against the same victim alone.
  fairness: async () => [
    await runFairnessBench({
      seconds: quick ? 3 : 8,
      rounds: quick ? 1 : Number(process.env.FAIRNESS_ROUNDS ?? 2),
      only: process.env.FAIRNESS_ATTACKS ? process.env.FAIRNESS_ATTACKS.split(',').map((id) => id.trim()) : undefined,
      serviceNodeOptions: process.env.FAIRNESS_SERVICE_NODE_OPTIONS,
      progress,
    }), await runAuditCatchUpBench({ events: quick ? 1000 : 5000, rounds: 1, progress })],
  weather: () => runWeatherBench({ documents: quick ? 100 : 500, alerts: quick ? 100 : 500, ...loadPhases(50, 4) }),
  // Issue 47: spawn to /health/ready with ten times the events in DATA_DIR, against the same mix at one time.
  restart: () => runRestartBench({ events: quick ? 2000 : 20_000, factor: 10, rounds: quick ? 2 : 3, progress }),
  // Issue 48: one api process against two (audited reverse), one worker against two (webhook deliveries), on the production adapters.
  scale: () => runScaleBench({ connections: 64, warmupSeconds: quick ? 0.5 : 1, seconds: quick ? 2 : 6, rounds: quick ? 1 : 2, deliveries: quick ? 100 : 1000, progress }),
};

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in benches));
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; usage: npm run bench [-- ${Object.keys(benches).join('|')}]\n`);
  process.exit(64);
}
const selected = requested.length > 0 ? requested : Object.keys(benches);

progress(`running ${selected.join(', ')}${quick ? ' (BENCH_QUICK: short phases, figures are rough)' : ''} on ${os.cpus().length} cpus`);
const sections: Section[] = [];
for (const name of selected) {
  progress(`${name}: starting`);
  try {
    sections.push(...[await benches[name]()].flat());
  } catch (error) {
    // The other benchmarks still run and report; this one is recorded as a failed check.
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    progress(`!! ${name} could not run: ${message}`);
    sections.push({
      id: name,
      title: `${name}: did not run`,
      unit: 'op',
      settings: {},
      rows: [],
      checks: [{ name: 'ran to completion', ok: false, detail: error instanceof Error ? error.message : String(error) }],
    });
  }
}

const tables = sections.map(renderSection).join('\n\n');
process.stdout.write(`\n${tables}\n\n`);

const resultsDir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, 'latest.json');
const report = {
  generated_at: new Date().toISOString(),
  quick,
  duration_seconds: Math.round((performance.now() - started) / 100) / 10,
  machine: { node: process.version, platform: `${os.platform()} ${os.arch()}`, cpus: os.cpus().length, cpu: os.cpus()[0]?.model },
  sections,
};
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
progress(`wrote ${path.relative(process.cwd(), file)}`);

const failed = sections.flatMap((section) => section.checks.filter((check) => !check.ok && !check.goal).map((check) => `${section.id}: ${check.name}`));
if (failed.length > 0) {
  process.stderr.write(`\n!! ${failed.length} check(s) FAILED — the figures above are not trustworthy:\n${failed.map((f) => `!!   ${f}`).join('\n')}\n`);
  process.exit(1);
}
// Worker threads and LMDB handles are closed; exit explicitly anyway so a stray timer cannot hold the run open.
process.exit(0);
