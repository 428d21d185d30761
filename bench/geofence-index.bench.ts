import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { latLngToCell } from 'h3-js';
import { FenceIndex, shapeOf, type GeofenceDefinition } from '../libs/monitoring/src/index.js';
import { toRow, type Check, type Row, type Sample, type Section } from './report.js';
import { seededRandom as random } from '../libs/platform/src/testing/seeded-random.js';

/**
 * The geofence index (libs/monitoring/src/geofences/fence-index.ts) against
 * raw h3-js `latLngToCell` at resolution 15, in the same run: a lookup is one
 * such call plus a map lookup per indexed resolution and the exact test of
 * the fences found, so the ratio shows what the index adds to the one H3 call
 * it cannot avoid. 10 and 10,000 active fences of one account: the cost per
 * lookup must barely move between the two (issue 4, "Throughput").
 *
 * Fences are spread over Ghana (circles of 100 m to 5 km, polygons of 4 to
 * 40 vertices up to ~10 km across, a tenth of them with 100+ vertices), a
 * third account-wide and the rest for one of 1000 customers; probe points
 * are uniform over the same area, half of them near a fence centre.
 */

export interface GeofenceIndexBenchOptions {
  fenceCounts: number[];
  /** Measured seconds per case and round. */
  seconds: number;
  rounds: number;
  progress: (line: string) => void;
}

const ACCOUNT = 'acct_bench';
const CUSTOMERS = 1000;
const POINTS = 50_000;
const BATCH = 1000;

type Fence = Pick<GeofenceDefinition, 'account_id' | 'fence_id' | 'fence_type' | 'customer_id' | 'loan_id' | 'center' | 'radius_m' | 'polygon'>;

function fences(count: number, next: () => number): Fence[] {
  return Array.from({ length: count }, (_, i) => {
    const lat = 4.8 + next() * 6;
    const lng = -3 + next() * 4;
    const common = { account_id: ACCOUNT, fence_id: `gf_${i}`, customer_id: next() < 1 / 3 ? null : `cust-${Math.floor(next() * CUSTOMERS)}`, loan_id: null };
    if (next() < 0.5) return { ...common, fence_type: 'circle' as const, center: { lat, lng }, radius_m: 100 * 50 ** next(), polygon: null };
    const vertices = next() < 0.1 ? 100 + Math.floor(next() * 100) : 4 + Math.floor(next() * 36);
    const size = 0.002 + next() * 0.045;
    const ring = Array.from({ length: vertices }, (_, v) => {
      const angle = (2 * Math.PI * (v + 0.5 * next())) / vertices;
      const reach = size * (0.4 + 0.6 * next());
      return [lng + reach * Math.cos(angle), lat + reach * Math.sin(angle)];
    });
    ring.push(ring[0]);
    return { ...common, fence_type: 'polygon' as const, center: null, radius_m: null, polygon: { type: 'Polygon' as const, coordinates: [ring] } };
  });
}

function points(all: Fence[], next: () => number): Array<{ lat: number; lng: number; customer: string }> {
  return Array.from({ length: POINTS }, (_, i) => {
    const customer = `cust-${Math.floor(next() * CUSTOMERS)}`;
    const fence = all[Math.floor(next() * all.length)];
    const anchor = fence.center ?? { lat: fence.polygon!.coordinates[0][0][1], lng: fence.polygon!.coordinates[0][0][0] };
    if (i % 2 === 0) return { lat: anchor.lat + (next() - 0.5) * 0.02, lng: anchor.lng + (next() - 0.5) * 0.02, customer };
    return { lat: 4.8 + next() * 6, lng: -3 + next() * 4, customer };
  });
}

/** Calls `op(i)` in batches of BATCH until `seconds` pass; latency is per operation, averaged over a batch. */
function measure(seconds: number, op: (i: number) => number): Sample & { sink: number } {
  const latenciesMs: number[] = [];
  let ops = 0;
  let sink = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  while (performance.now() < deadline) {
    const batchStart = performance.now();
    for (let k = 0; k < BATCH; k++) sink += op(ops + k);
    latenciesMs.push((performance.now() - batchStart) / BATCH);
    ops += BATCH;
  }
  return { ops, seconds: (performance.now() - started) / 1000, latenciesMs, sink };
}

function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

export async function runGeofenceIndexBench(options: GeofenceIndexBenchOptions): Promise<Section> {
  const gc = collectGarbage();
  const next = random(2026);
  const rows: Row[] = [];
  const checks: Check[] = [];
  const settings: Record<string, unknown> = { seconds: options.seconds, rounds: options.rounds, points: POINTS, customers: CUSTOMERS };

  const largest = Math.max(...options.fenceCounts);
  const allFences = fences(largest, next);
  const probes = points(allFences, next);
  const indexes = new Map<number, FenceIndex>();
  for (const count of options.fenceCounts) {
    gc();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    const index = new FenceIndex();
    let cells = 0;
    for (const fence of allFences.slice(0, count)) cells += index.add(fence).cell_count;
    const buildMs = performance.now() - started;
    gc();
    const bytes = process.memoryUsage().heapUsed - before;
    indexes.set(count, index);
    settings[`fences_${count}`] = {
      build_ms: Math.round(buildMs),
      build_ms_per_fence: Math.round((buildMs / count) * 100) / 100,
      cells_per_fence: Math.round((cells / count) * 10) / 10,
      heap_bytes_per_fence: Math.round(bytes / count),
    };
    options.progress(`geofence-index: ${count} fences indexed in ${Math.round(buildMs)} ms, ${Math.round(bytes / count)} heap bytes and ${(cells / count).toFixed(1)} cells per fence`);
  }

  // Correctness, so the figures are about a right answer: the index agrees with testing every fence.
  const full = indexes.get(largest)!;
  const shaped = allFences.map((fence) => ({ fence, shape: shapeOf(fence) }));
  let disagreements = 0;
  let hits = 0;
  const sample = probes.slice(0, 2000);
  for (const probe of sample) {
    const expected = shaped
      .filter(({ fence, shape }) => (fence.customer_id === null || fence.customer_id === probe.customer) && shape.contains(probe.lat, probe.lng))
      .map(({ fence }) => fence.fence_id)
      .sort();
    const actual = full
      .fencesContaining(ACCOUNT, probe.customer, probe.lat, probe.lng)
      .map((hit) => hit.fence_id)
      .sort();
    hits += actual.length;
    if (expected.join() !== actual.join()) disagreements++;
  }
  checks.push({
    name: `index agrees with per-fence tests over ${largest} fences`,
    ok: disagreements === 0,
    detail: `${sample.length} points, ${disagreements} disagreements, ${(hits / sample.length).toFixed(2)} fences per point`,
  });

  const raw = (i: number) => latLngToCell(probes[i % POINTS].lat, probes[i % POINTS].lng, 15).length;
  const lookup = (index: FenceIndex) => (i: number) => {
    const probe = probes[i % POINTS];
    return index.fencesContaining(ACCOUNT, probe.customer, probe.lat, probe.lng).length;
  };
  measure(options.seconds / 4, raw);
  for (const index of indexes.values()) measure(options.seconds / 4, lookup(index));

  const rawSamples: Sample[] = [];
  const oursSamples = new Map<number, Sample[]>(options.fenceCounts.map((count) => [count, []]));
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? ['raw', ...options.fenceCounts] : [...options.fenceCounts, 'raw'];
    for (const which of order) {
      if (which === 'raw') rawSamples.push(measure(options.seconds, raw));
      else oursSamples.get(which as number)!.push(measure(options.seconds, lookup(indexes.get(which as number)!)));
    }
    options.progress(`geofence-index: round ${round + 1}/${options.rounds} done`);
  }
  const baseline = toRow('h3-js latLngToCell(res 15)', 'baseline', rawSamples);
  rows.push(baseline);
  for (const count of options.fenceCounts) {
    rows.push(toRow(`fencesContaining, ${count} fences`, 'ours', oursSamples.get(count)!, baseline, 'latency: per lookup, averaged over batches of 1000'));
  }
  const [fewest, most] = [Math.min(...options.fenceCounts), largest];
  const few = rows.find((row) => row.case.endsWith(` ${fewest} fences`))!;
  const many = rows.find((row) => row.case.endsWith(` ${most} fences`))!;
  settings.lookups_per_s_ratio_many_to_few = Math.round((many.perSecond / few.perSecond) * 1000) / 1000;
  return { id: 'geofence-index', title: `Geofence index: lookups against ${options.fenceCounts.join(' and ')} active fences`, unit: 'lookup', settings, rows, checks };
}
