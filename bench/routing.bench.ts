import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { serveHttp, type RunningHttp } from '../apps/api/src/serve.js';
import { closeBackends, FileDatasetStore, type Runtime } from '../libs/platform/src/index.js';
import { BACKBONE_DATASET, importRoads, ROAD_DATASET, RoadNetwork, RoutingModule } from '../libs/routing/src/index.js';
import {
  arcsOf,
  buildRoadGraph,
  closeIslands,
  combineLayers,
  contract,
  dijkstraCost,
  HierarchyQuery,
  liveRoadLayers,
  RoutePlanner,
  type RoadRecord,
} from '../libs/routing/src/testing/benchmarked.js';
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
  /** Leave out the Accra-only comparison (against GRAPHHOPPER_URL) or the whole-Ghana one (GraphHopper started here). */
  skipAccra?: boolean;
  skipGhana?: boolean;
  progress: (line: string) => void;
}

export async function runRoutingBench(options: RoutingBenchOptions): Promise<Section> {
  const rows: Row[] = [];
  const checks: Check[] = [];
  const settings: Record<string, unknown> = { pairs: options.pairs, rounds: options.rounds, graphhopper: options.graphhopperUrl ?? 'not set', synthetic_grid: `${options.gridSize}×${options.gridSize}` };
  if (!options.skipAccra) await accra(options, rows, checks, settings, ACCRA_SCOPE);
  if (!options.skipGhana) await ghana(options, rows, checks, settings);
  if (!options.skipScale) await scale(options, rows, checks, settings);
  return { id: 'routing', title: 'routing: Accra and all of Ghana (backbone + Accra streets) against GraphHopper; synthetic 1M-node scale', unit: 'route', settings, rows, checks };
}

interface Scope {
  id: 'accra' | 'ghana';
  /** Road files of the starter pack and the dataset each is imported as. */
  files: Array<{ file: string; dataset: string }>;
  /** Prefix of row labels and settings. */
  label: string;
}

const ACCRA_SCOPE: Scope = { id: 'accra', files: [{ file: 'starter/ghana/roads/roads.osm.gz', dataset: ROAD_DATASET }], label: '' };
const GHANA_SCOPE: Scope = {
  id: 'ghana',
  files: [
    { file: 'starter/ghana/roads/roads.osm.gz', dataset: ROAD_DATASET },
    { file: 'starter/ghana/roads/ghana-backbone.osm.gz', dataset: BACKBONE_DATASET },
  ],
  label: 'Ghana: ',
};

/**
 * All of Ghana (issue 29): the starter's backbone and Accra streets combined
 * (docs/adr/0035), against GraphHopper 11 started here on the same combined
 * network (written out as OSM XML), with its import + preparation time and
 * peak memory beside ours. The jar: GRAPHHOPPER_JAR, else .ci/graphhopper/lib
 * (what .ci/services.sh fetches), else the local Maven repository; without
 * one, plain Dijkstra is the baseline, as for Accra.
 */
async function ghana(options: RoutingBenchOptions, rows: Row[], checks: Check[], settings: Record<string, unknown>): Promise<void> {
  const jar = [process.env.GRAPHHOPPER_JAR, path.join(appRoot(), '.ci/graphhopper/lib/graphhopper-web-11.0.jar'), path.join(os.homedir(), '.m2/repository/com/graphhopper/graphhopper-web/11.0/graphhopper-web-11.0.jar')].find(
    (candidate): candidate is string => candidate !== undefined && candidate !== '' && existsSync(candidate),
  );
  const work = mkdtempSync(path.join(tmpdir(), 'bench-ghana-gh-'));
  let java: ChildProcess | undefined;
  try {
    let graphhopperUrl: string | undefined;
    if (jar) {
      // The same network GraphHopper will read: the layers combined, as OSM XML.
      const store = new FileDatasetStore(path.join(work, 'reference'));
      for (const { file, dataset } of GHANA_SCOPE.files) await importRoads(store, path.join(appRoot(), file), {}, dataset);
      const live = (await liveRoadLayers(store))!;
      const inputs = [];
      for (const layer of live.layers) {
        const records: RoadRecord[] = [];
        for await (const record of store.records<RoadRecord>(layer.version)) records.push(record);
        inputs.push({ role: layer.role, records });
      }
      const osmFile = path.join(work, 'ghana-combined.osm');
      writeFileSync(osmFile, combinedOsmXml(combineLayers(inputs).records));
      const port = 8995;
      const config = readFileSync(path.join(appRoot(), '.ci/graphhopper/config.yml'), 'utf8')
        .replaceAll('@OSM@', osmFile)
        .replaceAll('@DATA@', path.join(work, 'graph-cache'))
        .replaceAll('@MODELS@', path.join(appRoot(), '.ci/graphhopper'))
        .replaceAll('@PORT@', String(port))
        .replaceAll('@ADMIN_PORT@', String(port + 1));
      writeFileSync(path.join(work, 'config.yml'), config);
      const started = performance.now();
      java = spawn('java', ['-Xms256m', '-Xmx2g', '-XX:+ExitOnOutOfMemoryError', '-Djava.awt.headless=true', '-jar', jar, 'server', path.join(work, 'config.yml')], { stdio: 'ignore' });
      graphhopperUrl = `http://127.0.0.1:${port}`;
      let ready = false;
      for (let i = 0; i < 1800 && !ready && java.exitCode === null; i++) {
        ready = await fetch(`${graphhopperUrl}/info`).then((response) => response.ok).catch(() => false);
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (!ready) throw new Error('GraphHopper did not start on the combined Ghana network');
      const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${java.pid}/status`, 'utf8'))?.[1];
      settings.ghana_graphhopper_import_and_prepare_s = ((performance.now() - started) / 1000).toFixed(1);
      settings.ghana_graphhopper_peak_rss_mb = peak ? (Number(peak) / 1024).toFixed(0) : 'unknown';
      options.progress(`routing ghana: GraphHopper ready on the combined network in ${settings.ghana_graphhopper_import_and_prepare_s} s, peak RSS ${settings.ghana_graphhopper_peak_rss_mb} MB`);
    } else settings.ghana_graphhopper = 'no graphhopper-web-11.0.jar found (GRAPHHOPPER_JAR): plain Dijkstra is the baseline';
    await accra({ ...options, graphhopperUrl }, rows, checks, settings, GHANA_SCOPE);
  } finally {
    if (java && java.exitCode === null) {
      const exited = new Promise((resolve) => java!.once('exit', resolve));
      java.kill('SIGTERM');
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  }
}

/** The combined network as OSM XML for GraphHopper: the ways with their tags, and every node they use. */
function combinedOsmXml(records: RoadRecord[]): string {
  const nodes = new Map<number, [number, number]>();
  const ways: string[] = [];
  const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  for (const record of records) {
    if (record.type !== 'way') continue;
    record.nodes.forEach((node, i) => nodes.set(node, record.points[i]));
    ways.push(`  <way id="${record.id}">\n${record.nodes.map((node) => `    <nd ref="${node}"/>`).join('\n')}\n${Object.entries(record.tags).map(([k, v]) => `    <tag k="${escape(k)}" v="${escape(v)}"/>`).join('\n')}\n  </way>`);
  }
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="location-api bench">'];
  for (const [id, [lat, lng]] of [...nodes.entries()].sort(([a], [b]) => a - b)) lines.push(`  <node id="${id}" lat="${lat}" lon="${lng}"/>`);
  lines.push(...ways, '</osm>', '');
  return lines.join('\n');
}

async function accra(options: RoutingBenchOptions, rows: Row[], checks: Check[], settings: Record<string, unknown>, scope: Scope): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-routing-'));
  const adminKey = randomBytes(24).toString('base64url');
  let runtime: Runtime | undefined;
  let served: RunningHttp | undefined;
  try {
    const store = new FileDatasetStore(path.join(dataDir, 'reference'));
    const rssBefore = process.memoryUsage().rss;
    const importStarted = performance.now();
    for (const { file, dataset } of scope.files) await importRoads(store, path.join(appRoot(), file), {}, dataset);
    const imported = performance.now();
    const network = new RoadNetwork(store, path.join(dataDir, 'routing', 'graphs'), { info: () => undefined, error: () => undefined }, 0);
    await network.start();
    settings[`${scope.id}_ours_import_s`] = ((imported - importStarted) / 1000).toFixed(1);
    settings[`${scope.id}_ours_prepare_and_load_s`] = ((performance.now() - imported) / 1000).toFixed(1);
    settings[`${scope.id}_ours_rss_growth_mb`] = ((process.memoryUsage().rss - rssBefore) / 2 ** 20).toFixed(0);
    settings[`${scope.id}_graph`] = `${network.info!.nodes} nodes, ${network.info!.edges} edges, layers ${network.info!.layers.map((layer) => layer.dataset).join(' + ')}`;
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
        options.progress(`routing ${scope.id} ${subject.label}, round ${round + 1}/${options.rounds}: p50 ${percentile(latencies, 50)?.toFixed(2)} ms`);
      }
    }
    const baseline = toRow(scope.label + subjects[0].label, 'baseline', samples.theirs);
    const ourRow = toRow(scope.label + subjects[1].label, 'ours', samples.ours, baseline);
    const publicRow = toRow(scope.label + subjects[2].label, 'reference', samples.public, baseline);
    const pipelineRow = toRow(scope.label + subjects[3].label, 'reference', samples.pipeline, baseline);
    settings[`${scope.id}_routing_share_of_route_p50_ms`] = `${((ourRow.p50Ms ?? 0) - (pipelineRow.p50Ms ?? 0)).toFixed(2)} (route p50 minus the 400's)`;
    // For context: the same routes without HTTP, key check and audit (engine, steps, flags), in this process.
    const planner = served.app.get(RoutePlanner, { strict: false });
    const inProcess: number[] = [];
    const begun = performance.now();
    for (const [from, to] of pairs) {
      const t = performance.now();
      await planner.plan({ from, to });
      inProcess.push(performance.now() - t);
    }
    rows.push(baseline, ourRow, publicRow, pipelineRow, toRow(scope.label + 'RoutePlanner.plan in process (engine + steps), same pairs', 'reference', [{ ops: pairs.length, seconds: (performance.now() - begun) / 1000, latenciesMs: inProcess }]));
    if (graphhopper) {
      const within = (share: number) => lengths.ours.filter((length, i) => Math.abs(length - lengths.theirs[i]) / lengths.theirs[i] <= share).length;
      settings[`${scope.id}_lengths_within_1_percent`] = `${within(0.01)}/${pairs.length} (${((within(0.01) / pairs.length) * 100).toFixed(1)} %)`;
      settings[`${scope.id}_lengths_within_5_percent`] = `${within(0.05)}/${pairs.length} (${((within(0.05) / pairs.length) * 100).toFixed(1)} %)`;
      const ratios = lengths.ours.map((length, i) => length / lengths.theirs[i]).sort((a, b) => a - b);
      settings[`${scope.id}_length_ratio_ours_to_theirs_p50`] = ratios[Math.floor(ratios.length / 2)].toFixed(3);
      const distances = [...lengths.theirs].sort((a, b) => a - b);
      settings[`${scope.id}_pair_length_km_p50_p90_max`] = [0.5, 0.9, 1].map((q) => (distances[Math.min(distances.length - 1, Math.floor(q * distances.length))] / 1000).toFixed(1)).join(' / ');
      checks.push({ name: `${scope.label}route lengths within 1 % of GraphHopper’s`, ok: true, detail: String(settings[`${scope.id}_lengths_within_1_percent`]) });
      checks.push({ name: `${scope.label}goal: p50 of a full route with steps no slower than GraphHopper’s`, ok: (ourRow.p50Ms ?? Infinity) <= (baseline.p50Ms ?? 0), goal: true, detail: `${ourRow.p50Ms} ms against ${baseline.p50Ms} ms` });
    }
    checks.push({ name: `${scope.label}every request answered as expected (200, the 400 on purpose)`, ok: true, detail: `${pairs.length * subjects.length} requests` });
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
