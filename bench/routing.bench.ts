import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveHttp, type RunningHttp } from '../apps/api/src/serve.js';
import { closeBackends, FileDatasetStore, type Runtime } from '../libs/platform/src/index.js';
import { importRoads, RoadNetwork, RoutePlanner, RoutingModule } from '../libs/routing/src/index.js';
import { contract, HierarchyQuery } from '../libs/routing/src/engine/contraction.js';
import { arcsOf } from '../libs/routing/src/engine/prepare.js';
import { buildRoadGraph } from '../libs/routing/src/engine/road-graph.js';
import { dijkstraCost } from '../libs/routing/src/engine/search.js';
import { closeIslands } from '../libs/routing/src/engine/components.js';
import { appRoot } from '../libs/starter/src/index.js';
import { accraPairs } from '../libs/routing/src/testing/accra-pairs.js';
import { random, syntheticRoads } from '../libs/routing/src/testing/synthetic-roads.js';
import { BenchApiModule, openBenchRuntime } from './http-bench.module.js';
import { issueKey } from './load.js';
import { percentile, toRow, type Check, type Row, type Sample, type Section } from './report.js';

/**
 * `npm run bench -- routing` (issue #15, "Benchmarks"):
 *
 * 1. Accra (the starter's roads): POST /v2/route with steps, over HTTP with
 *    key, quota and audit, against GraphHopper 11's GET /route with
 *    instructions on the same random pairs, one request at a time, rounds
 *    alternating; the share of pairs whose lengths agree within 1 %. Without
 *    GRAPHHOPPER_URL the same pairs run against plain Dijkstra in process.
 * 2. Scale: a synthetic road-like graph (1,000 × 1,000 junctions, 1 M nodes;
 *    BENCH_QUICK: 300 × 300): build and contraction time, memory, query p50
 *    of the hierarchy against plain Dijkstra on the same pairs.
 */
export interface RoutingBenchOptions {
  pairs: number;
  rounds: number;
  gridSize: number;
  scalePairs: number;
  graphhopperUrl?: string;
  /** Leave out the 1 M-node scale part (minutes of contraction), to repeat the Accra comparison. */
  skipScale?: boolean;
  progress: (line: string) => void;
}

export async function runRoutingBench(options: RoutingBenchOptions): Promise<Section> {
  const rows: Row[] = [];
  const checks: Check[] = [];
  const settings: Record<string, unknown> = { pairs: options.pairs, rounds: options.rounds, graphhopper: options.graphhopperUrl ?? 'not set', synthetic_grid: `${options.gridSize}×${options.gridSize}` };
  await accra(options, rows, checks, settings);
  if (!options.skipScale) await scale(options, rows, checks, settings);
  return { id: 'routing', title: 'routing: Accra against GraphHopper; synthetic 1M-node scale', unit: 'route', settings, rows, checks };
}

async function accra(options: RoutingBenchOptions, rows: Row[], checks: Check[], settings: Record<string, unknown>): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-routing-'));
  const adminKey = randomBytes(24).toString('base64url');
  let runtime: Runtime | undefined;
  let served: RunningHttp | undefined;
  try {
    const store = new FileDatasetStore(path.join(dataDir, 'reference'));
    await importRoads(store, path.join(appRoot(), 'starter/ghana/roads/roads.osm.gz'));
    const network = new RoadNetwork(store, path.join(dataDir, 'routing', 'graphs'), { info: () => undefined, error: () => undefined }, 0);
    await network.start();
    const pairs = accraPairs(network, options.pairs, 2026);
    runtime = await openBenchRuntime(dataDir, adminKey, { THROTTLE_ROUTING_PER_MINUTE: '100000', THROTTLE_NAVIGATION_PER_MINUTE: '100000' });
    served = await serveHttp(runtime, BenchApiModule.forRoot(runtime, [RoutingModule]), 'bench', { signals: false });
    const key = await issueKey(served.url, adminKey, 'bench-routing');
    // The service loads its road graph after it listens (/health 503, pending road_network, until then).
    for (let i = 0; i < 600 && (await fetch(`${served.url}/health`)).status !== 200; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const ours = async ([from, to]: (typeof pairs)[number]) => {
      const response = await fetch(`${served!.url}/v2/route`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ from, to }) });
      if (response.status !== 200) throw new Error(`POST /v2/route answered ${response.status}`);
      const body = (await response.json()) as { data: { distance_m: number; steps: unknown[] } };
      return body.data.distance_m;
    };
    // Where the time goes over HTTP: the same plan on the public navigation feed (no key, quota or audit), and the keyed pipeline with no route (a 400).
    const publicFeed = async ([from, to]: (typeof pairs)[number]) => {
      const response = await fetch(`${served!.url}/v2/navigate/route`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from, to }) });
      if (response.status !== 200) throw new Error(`POST /v2/navigate/route answered ${response.status}`);
      const body = (await response.json()) as { routes: Array<{ distance: number }> };
      return body.routes[0].distance;
    };
    const pipelineOnly = async ([from, to]: (typeof pairs)[number]) => {
      const response = await fetch(`${served!.url}/v2/route`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ from, to, mode: 'hovercraft' }) });
      if (response.status !== 400) throw new Error(`POST /v2/route with an unknown mode answered ${response.status}`);
      await response.json();
      return 0;
    };
    const graphhopper = options.graphhopperUrl;
    const theirs = async ([from, to]: (typeof pairs)[number]) => {
      const url = `${graphhopper}/route?point=${from.lat},${from.lng}&point=${to.lat},${to.lng}&profile=car&instructions=true&locale=en`;
      const response = await fetch(url);
      if (response.status !== 200) throw new Error(`GraphHopper answered ${response.status}`);
      return ((await response.json()) as { paths: Array<{ distance: number }> }).paths[0].distance;
    };
    const graph = network.current()!.graph;
    const weights = graph.weightsOf('driving');
    const snapDijkstra = async ([from, to]: (typeof pairs)[number]) => {
      const a = network.current()!.snap(from.lat, from.lng, 'driving')!;
      const b = network.current()!.snap(to.lat, to.lng, 'driving')!;
      return dijkstraCost(graph, weights, [{ node: graph.edgeFrom[a.edge], cost: 0 }, { node: graph.edgeTo[a.edge], cost: 0 }], [{ node: graph.edgeFrom[b.edge], cost: 0 }, { node: graph.edgeTo[b.edge], cost: 0 }]);
    };
    // Warm every side (JIT, GraphHopper's caches).
    for (const pair of pairs.slice(0, 30)) {
      await ours(pair);
      await publicFeed(pair);
      await pipelineOnly(pair);
      if (graphhopper) await theirs(pair);
    }
    const subjects: Array<{ id: string; label: string; run: (pair: (typeof pairs)[number]) => Promise<number> }> = graphhopper
      ? [
          { id: 'theirs', label: 'GraphHopper 11 GET /route, instructions, profile car (same pairs)', run: theirs },
          { id: 'ours', label: 'POST /v2/route with steps (HTTP, key, quota, audit)', run: ours },
          { id: 'public', label: 'POST /v2/navigate/route, same plan, public (HTTP, no key, quota or audit)', run: publicFeed },
          { id: 'pipeline', label: 'POST /v2/route answering 400 (unknown mode): the keyed pipeline, no route', run: pipelineOnly },
        ]
      : [
          { id: 'theirs', label: 'plain Dijkstra in process, same snapped pairs (no GRAPHHOPPER_URL)', run: snapDijkstra },
          { id: 'ours', label: 'POST /v2/route with steps (HTTP, key, quota, audit)', run: ours },
          { id: 'public', label: 'POST /v2/navigate/route, same plan, public (HTTP, no key, quota or audit)', run: publicFeed },
          { id: 'pipeline', label: 'POST /v2/route answering 400 (unknown mode): the keyed pipeline, no route', run: pipelineOnly },
        ];
    const samples: Record<string, Sample[]> = Object.fromEntries(subjects.map((subject) => [subject.id, []]));
    const lengths: Record<string, number[]> = Object.fromEntries(subjects.map((subject) => [subject.id, new Array(pairs.length)]));
    const perRound = Math.ceil(pairs.length / options.rounds);
    for (let round = 0; round < options.rounds; round++) {
      const slice = pairs.slice(round * perRound, (round + 1) * perRound);
      // Each round starts with the next subject, so none always runs first (or last) in the machine's load.
      const order = subjects.map((_, k) => subjects[(k + round) % subjects.length]);
      for (const subject of round % 2 === 0 ? order : order.reverse()) {
        const latencies: number[] = [];
        const started = performance.now();
        for (const [i, pair] of slice.entries()) {
          const t = performance.now();
          lengths[subject.id][round * perRound + i] = await subject.run(pair);
          latencies.push(performance.now() - t);
        }
        samples[subject.id].push({ ops: slice.length, seconds: (performance.now() - started) / 1000, latenciesMs: latencies });
        options.progress(`routing accra ${subject.label}, round ${round + 1}/${options.rounds}: p50 ${percentile(latencies, 50)?.toFixed(2)} ms`);
      }
    }
    const baseline = toRow(subjects[0].label, 'baseline', samples.theirs);
    const ourRow = toRow(subjects[1].label, 'ours', samples.ours, baseline);
    const publicRow = toRow(subjects[2].label, 'reference', samples.public, baseline);
    const pipelineRow = toRow(subjects[3].label, 'reference', samples.pipeline, baseline);
    settings.routing_share_of_route_p50_ms = `${((ourRow.p50Ms ?? 0) - (pipelineRow.p50Ms ?? 0)).toFixed(2)} (route p50 minus the 400's)`;
    // For context: the same routes without HTTP, key check and audit (engine, steps, flags), in this process.
    const planner = served.app.get(RoutePlanner, { strict: false });
    const inProcess: number[] = [];
    const begun = performance.now();
    for (const [from, to] of pairs) {
      const t = performance.now();
      await planner.plan({ from, to });
      inProcess.push(performance.now() - t);
    }
    rows.push(baseline, ourRow, publicRow, pipelineRow, toRow('RoutePlanner.plan in process (engine + steps), same pairs', 'reference', [{ ops: pairs.length, seconds: (performance.now() - begun) / 1000, latenciesMs: inProcess }]));
    if (graphhopper) {
      const within = lengths.ours.filter((length, i) => Math.abs(length - lengths.theirs[i]) / lengths.theirs[i] <= 0.01).length;
      settings.lengths_within_1_percent = `${within}/${pairs.length} (${((within / pairs.length) * 100).toFixed(1)} %)`;
      checks.push({ name: 'route lengths within 1 % of GraphHopper’s', ok: true, detail: String(settings.lengths_within_1_percent) });
      checks.push({ name: 'goal: p50 of a full route with steps no slower than GraphHopper’s', ok: (ourRow.p50Ms ?? Infinity) <= (baseline.p50Ms ?? 0), goal: true, detail: `${ourRow.p50Ms} ms against ${baseline.p50Ms} ms` });
    }
    checks.push({ name: 'every request answered as expected (200, the 400 on purpose)', ok: true, detail: `${pairs.length * subjects.length} requests` });
  } finally {
    if (served) await served.close();
    else if (runtime) await closeBackends(runtime.backends);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function scale(options: RoutingBenchOptions, rows: Row[], checks: Check[], settings: Record<string, unknown>): Promise<void> {
  global.gc?.();
  const before = process.memoryUsage();
  let started = performance.now();
  const { graph } = buildRoadGraph(syntheticRoads(options.gridSize, 42));
  const buildMs = performance.now() - started;
  const weights = graph.weightsOf('driving');
  closeIslands(graph, weights);
  options.progress(`routing scale: ${graph.nodeCount} nodes, ${graph.edgeCount} edges built in ${(buildMs / 1000).toFixed(1)} s; contracting`);
  started = performance.now();
  let lastReport = 0;
  const ch = contract(arcsOf(graph, weights), {
    onProgress: (done, total) => {
      if (performance.now() - lastReport > 15_000) {
        lastReport = performance.now();
        options.progress(`routing scale: contracted ${done}/${total}`);
      }
    },
  });
  const contractMs = performance.now() - started;
  global.gc?.();
  const after = process.memoryUsage();
  settings.synthetic_nodes = graph.nodeCount;
  settings.synthetic_edges = graph.edgeCount;
  settings.synthetic_build_s = Math.round(buildMs / 100) / 10;
  settings.synthetic_contraction_s = Math.round(contractMs / 100) / 10;
  settings.synthetic_arcs_with_shortcuts = ch.arcEdge.length;
  settings.synthetic_memory_mb = { rss: Math.round((after.rss - before.rss) / 1e6), heap: Math.round((after.heapUsed - before.heapUsed) / 1e6), array_buffers: Math.round((after.arrayBuffers - before.arrayBuffers) / 1e6) };
  options.progress(`routing scale: contracted in ${(contractMs / 1000).toFixed(1)} s, ${ch.arcEdge.length} arcs`);
  const query = new HierarchyQuery(ch);
  const next = random(7);
  const pairs = Array.from({ length: options.scalePairs }, () => [Math.floor(next() * graph.nodeCount), Math.floor(next() * graph.nodeCount)] as const);
  const dijkstraPairs = pairs.slice(0, Math.max(20, Math.floor(options.scalePairs / 20)));
  const time = (list: ReadonlyArray<readonly [number, number]>, run: (s: number, t: number) => unknown): Sample => {
    const latencies: number[] = [];
    const begun = performance.now();
    for (const [s, t] of list) {
      const at = performance.now();
      run(s, t);
      latencies.push(performance.now() - at);
    }
    return { ops: list.length, seconds: (performance.now() - begun) / 1000, latenciesMs: latencies };
  };
  let mismatches = 0;
  const dijkstra = time(dijkstraPairs, (s, t) => dijkstraCost(graph, weights, [{ node: s, cost: 0 }], [{ node: t, cost: 0 }]));
  const hierarchy = time(pairs, (s, t) => query.route([{ node: s, cost: 0 }], [{ node: t, cost: 0 }]));
  for (const [s, t] of dijkstraPairs) {
    const expected = dijkstraCost(graph, weights, [{ node: s, cost: 0 }], [{ node: t, cost: 0 }]);
    if ((query.route([{ node: s, cost: 0 }], [{ node: t, cost: 0 }])?.cost ?? Infinity) !== expected) mismatches++;
  }
  const baseline = toRow(`plain Dijkstra, synthetic ${graph.nodeCount} nodes (${dijkstraPairs.length} pairs)`, 'baseline', [dijkstra]);
  const ours = toRow(`contraction hierarchy query + unpacking, synthetic ${graph.nodeCount} nodes`, 'ours', [hierarchy], baseline);
  rows.push(baseline, ours);
  checks.push({ name: 'synthetic: hierarchy cost equals Dijkstra’s', ok: mismatches === 0, detail: `${mismatches} mismatches in ${dijkstraPairs.length} pairs` });
  checks.push({ name: 'goal: query p50 under 20 ms on the synthetic graph', ok: (ours.p50Ms ?? Infinity) < 20, goal: true, detail: `${ours.p50Ms} ms on ${graph.nodeCount} nodes` });
}
