import { ReporterGroups } from '../../../platform/src/ids/reporters.js';

/**
 * Traffic learned from arrivals (docs/adr/0025, 0031, 0056), a pure fold of
 * samples in log order. Each sample's observed/static ratio is spread over the
 * H3 cells its static route passes, in its hour-of-day bucket, as a decayed
 * weighted mean of log-ratios (half-life LEARNED_HALF_LIFE_DAYS), kept per
 * reporter. A reporter is counted as hazard corroboration counts one
 * (ReporterGroups, ADR 0034): samples that share an identity (the client
 * address's keyed hash, the account's) are one reporter, transitively, within
 * the cell-hour. Each sample carries its reporter's weight (1, or
 * LOW_TRUST_WEIGHT for a free-tier or young account: ADR 0056). A cell-hour's
 * figure is the prior until it holds MIN_SAMPLES samples from reporters whose
 * weights add up to MIN_REPORTERS; after that it is the learned mean shrunk
 * toward the prior (PRIOR_WEIGHT pseudo-samples), each reporter counting for
 * at most REPORTER_WEIGHT_CAP × its weight (ADR 0031). Prequential
 * evaluation: each sample is first predicted with what was learned before it.
 */
export const LEARNED_HALF_LIFE_DAYS = 14;
export const ACCURACY_WINDOW_DAYS = 14;
export const BUCKETS = 24;
/** Learned factors are clamped to this range before routing uses them. */
export const MIN_FACTOR = 1;
export const MAX_FACTOR = 5;
/** Samples a cell-hour needs before its learned figure replaces the prior (ADR 0031). */
export const MIN_SAMPLES = 5;
/**
 * Distinct reporters a cell-hour needs, counted as hazard corroboration counts
 * them (ADR 0034) and each by its weight (ADR 0056): three full-weight
 * reporters, or six free or young accounts on six addresses.
 */
export const MIN_REPORTERS = 3;
/** One reporter's (decayed) weight in a cell-hour counts for at most this many samples (times its reporter weight). */
export const REPORTER_WEIGHT_CAP = 2;
/** Weight of the prior in pseudo-samples when the learned mean is shrunk toward it. */
export const PRIOR_WEIGHT = 5;
/**
 * The prior: the routing engine's static speed profile per road class
 * (docs/adr/0018), i.e. no congestion (factor 1). Nothing measured stands
 * behind any other figure, so none is served (ADR 0031).
 */
export const PRIOR = { factor: 1, source: 'static_speed_profile' } as const;
/** Samples of arrivals recorded before reporters were kept (ADR 0031) count as this one reporter. */
export const LEGACY_REPORTER = 'legacy';

const DAY_MS = 86_400_000;

interface ReporterStat {
  /** Decayed Σ reporter weight of its samples. */
  weight: number;
  /** Decayed Σ reporter weight × log-ratio. */
  logSum: number;
  /** The largest reporter weight any of its samples carried: what it counts for at the gate and in the cap. */
  trust: number;
}

interface CellStat {
  samples: number;
  updated: number;
  /** Who reported here: identities joined into reporters (ADR 0034). */
  groups: ReporterGroups;
  /** Per reporter (named by ReporterGroups.groupOf). */
  reporters: Map<string, ReporterStat>;
  /** Σ trust over the reporters: what the gate compares with MIN_REPORTERS. */
  trusted: number;
}

export interface SampleInput {
  at: number;
  bucket: number;
  cells: string[];
  observed_s: number;
  static_s: number;
  /** Who reported it (a keyed hash); absent: LEGACY_REPORTER. */
  reporter?: string;
  /** Every identity of the reporter (keyed hashes of the client address and the account): reports sharing one are one reporter. Absent or empty: `[reporter]`. */
  reporter_ids?: readonly string[];
  /** The reporter's weight, in (0, 1] (ADR 0056); absent: 1. */
  reporter_weight?: number;
}

/** The one figure a cell-hour has, for routes, the heatmap and GET /v2/route/traffic alike. */
export interface CellEstimate {
  /** Multiplier of static travel time, clamped to [MIN_FACTOR, MAX_FACTOR]; PRIOR.factor while `source` is prior. */
  factor: number;
  source: 'learned' | 'prior';
  samples: number;
  /** Distinct reporters (ADR 0034), whatever their weight. */
  reporters: number;
  /** Summed reporter weights after the cap (what the learned mean counts as against the prior's PRIOR_WEIGHT). */
  weight: number;
}

export interface Evaluation {
  at: number;
  static_ape: number;
  learned_ape: number;
}

export class LearnedTraffic {
  private readonly stats = new Map<string, CellStat>();
  private readonly evaluations: Evaluation[] = [];
  private readonly arrivalErrors = new Map<string, { count: number; sum_m: number }>();
  private sampleCount = 0;
  /** Cell-hours past the gate (a report linking two reporters into one may close one again). */
  private learnedCells = 0;

  get samples(): number {
    return this.sampleCount;
  }

  isEmpty(): boolean {
    return this.stats.size === 0;
  }

  /** Whether any cell-hour has passed the gate (otherwise every figure is the prior). */
  hasLearned(): boolean {
    return this.learnedCells > 0;
  }

  /** The model's figure for a cell at an hour (undefined: no sample there at all). */
  estimate(cell: string, bucket: number): CellEstimate | undefined {
    const stat = this.stats.get(key(cell, bucket));
    return stat ? estimateOf(stat) : undefined;
  }

  /** The learned factor of a cell at an hour; undefined while the cell-hour is on the prior. */
  factor(cell: string, bucket: number): number | undefined {
    const estimate = this.estimate(cell, bucket);
    return estimate?.source === 'learned' ? estimate.factor : undefined;
  }

  /** The model's prediction for a trip: static time × the mean log-factor of its cells (the prior where not learned). */
  predict(cells: string[], bucket: number, staticS: number): number {
    if (cells.length === 0) return staticS;
    let logSum = 0;
    for (const cell of cells) logSum += Math.log(this.factor(cell, bucket) ?? PRIOR.factor);
    return staticS * Math.exp(logSum / cells.length);
  }

  add(sample: SampleInput): void {
    const predicted = this.predict(sample.cells, sample.bucket, sample.static_s);
    this.evaluations.push({ at: sample.at, static_ape: Math.abs(sample.static_s - sample.observed_s) / sample.observed_s, learned_ape: Math.abs(predicted - sample.observed_s) / sample.observed_s });
    const logRatio = Math.log(sample.observed_s / sample.static_s);
    const identities = sample.reporter_ids && sample.reporter_ids.length > 0 ? sample.reporter_ids : [sample.reporter ?? LEGACY_REPORTER];
    const trust = trustOf(sample.reporter_weight);
    for (const cell of new Set(sample.cells)) {
      const k = key(cell, sample.bucket);
      const stat = this.stats.get(k) ?? { samples: 0, updated: sample.at, groups: new ReporterGroups(), reporters: new Map<string, ReporterStat>(), trusted: 0 };
      const wasGated = gated(stat);
      // Every weight of a cell-hour is kept as of its latest sample: a newer sample ages the others, an older one arrives aged.
      let decay = 1;
      if (sample.at > stat.updated) {
        const older = halfLives(sample.at - stat.updated);
        for (const entry of stat.reporters.values()) {
          entry.weight *= older;
          entry.logSum *= older;
        }
        stat.updated = sample.at;
      } else decay = halfLives(stat.updated - sample.at);
      // The reporters this sample's identities belonged to: one now, its figures their sum (weights are all as of `updated`).
      const before = new Set<string>();
      for (const identity of identities) {
        const group = stat.groups.groupOf(identity);
        if (group !== undefined) before.add(group);
      }
      stat.groups.add(identities);
      const name = stat.groups.groupOf(identities[0])!;
      const entry = stat.reporters.get(name) ?? { weight: 0, logSum: 0, trust: 0 };
      for (const group of before) {
        if (group === name) continue;
        const joined = stat.reporters.get(group)!;
        entry.weight += joined.weight;
        entry.logSum += joined.logSum;
        entry.trust = Math.max(entry.trust, joined.trust);
        stat.reporters.delete(group);
      }
      entry.weight += trust * decay;
      entry.logSum += trust * decay * logRatio;
      entry.trust = Math.max(entry.trust, trust);
      stat.reporters.set(name, entry);
      stat.trusted = 0;
      for (const reporter of stat.reporters.values()) stat.trusted += reporter.trust;
      stat.samples++;
      const isGated = gated(stat);
      if (!wasGated && isGated) this.learnedCells++;
      else if (wasGated && !isGated) this.learnedCells--;
      this.stats.set(k, stat);
    }
    this.sampleCount++;
  }

  addArrivalError(cell: string, errorM: number): void {
    const entry = this.arrivalErrors.get(cell) ?? { count: 0, sum_m: 0 };
    entry.count++;
    entry.sum_m += errorM;
    this.arrivalErrors.set(cell, entry);
  }

  /** Mean arrival error per destination cell. */
  arrivalError(cell: string): { count: number; mean_m: number } | undefined {
    const entry = this.arrivalErrors.get(cell);
    return entry ? { count: entry.count, mean_m: entry.sum_m / entry.count } : undefined;
  }

  arrivalErrorSummary(): { cells: number; arrivals: number; mean_m: number | null } {
    let arrivals = 0;
    let sum = 0;
    for (const entry of this.arrivalErrors.values()) {
      arrivals += entry.count;
      sum += entry.sum_m;
    }
    return { cells: this.arrivalErrors.size, arrivals, mean_m: arrivals === 0 ? null : Math.round((sum / arrivals) * 10) / 10 };
  }

  /** Every (cell, bucket) with at least one sample, and its figure. */
  *cells(): Iterable<{ cell: string; bucket: number } & CellEstimate> {
    for (const [k, stat] of this.stats) {
      const [cell, bucket] = k.split('@');
      yield { cell, bucket: Number(bucket), ...estimateOf(stat) };
    }
  }

  /** MAPE (percent) of the static and learned models over the window before `now`. */
  accuracy(now: number): { samples: number; static_mape: number | null; learned_mape: number | null; learned_wins: boolean } {
    const since = now - ACCURACY_WINDOW_DAYS * DAY_MS;
    const window = this.evaluations.filter((evaluation) => evaluation.at > since && evaluation.at <= now);
    if (window.length === 0) return { samples: 0, static_mape: null, learned_mape: null, learned_wins: false };
    const mape = (pick: (evaluation: Evaluation) => number) => Math.round((window.reduce((sum, evaluation) => sum + pick(evaluation), 0) / window.length) * 1000) / 10;
    const staticMape = mape((evaluation) => evaluation.static_ape);
    const learnedMape = mape((evaluation) => evaluation.learned_ape);
    return { samples: window.length, static_mape: staticMape, learned_mape: learnedMape, learned_wins: learnedMape < staticMape };
  }
}

function key(cell: string, bucket: number): string {
  return `${cell}@${bucket}`;
}

/** The hour of day of a time (Ghana keeps UTC all year). */
export function bucketOf(at: Date): number {
  return at.getUTCHours();
}

/** Road classes GET /v2/route/traffic names (interface.md). */
export const ROAD_CLASSES = ['motorway', 'primary', 'secondary', 'residential'] as const;

function halfLives(ms: number): number {
  return Math.pow(0.5, ms / (LEARNED_HALF_LIFE_DAYS * DAY_MS));
}

/** A stored reporter weight, read defensively: absent (arrivals before ADR 0056) or out of (0, 1] is 1. */
function trustOf(weight: number | undefined): number {
  return typeof weight === 'number' && weight > 0 && weight <= 1 ? weight : 1;
}

/** Reporter weights are halves (ADR 0056), so their sum is exact; the epsilon only guards another weight someday. */
function gated(stat: CellStat): boolean {
  return stat.samples >= MIN_SAMPLES && stat.trusted >= MIN_REPORTERS - 1e-9;
}

/** The capped, shrunk learned mean once the gate is passed; the prior before (ADR 0031). */
function estimateOf(stat: CellStat): CellEstimate {
  let weight = 0;
  let logSum = 0;
  for (const entry of stat.reporters.values()) {
    if (entry.weight <= 0) continue;
    const capped = Math.min(entry.weight, REPORTER_WEIGHT_CAP * entry.trust);
    weight += capped;
    logSum += (capped / entry.weight) * entry.logSum;
  }
  const base = { samples: stat.samples, reporters: stat.reporters.size, weight: Math.round(weight * 100) / 100 };
  if (!gated(stat) || weight <= 0) return { factor: PRIOR.factor, source: 'prior', ...base };
  const shrunk = Math.exp((PRIOR_WEIGHT * Math.log(PRIOR.factor) + logSum) / (PRIOR_WEIGHT + weight));
  return { factor: Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, shrunk)), source: 'learned', ...base };
}
