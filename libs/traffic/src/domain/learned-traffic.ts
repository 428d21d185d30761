/**
 * Traffic learned from arrivals (docs/adr/0025), a pure fold of samples in
 * log order. Each sample's observed/static ratio is spread over the H3 cells
 * its static route passes, in its hour-of-day bucket, as a decayed weighted
 * mean of log-ratios (half-life LEARNED_HALF_LIFE_DAYS). Prequential
 * evaluation: each sample is first predicted with what was learned before it.
 */
export const LEARNED_HALF_LIFE_DAYS = 14;
export const ACCURACY_WINDOW_DAYS = 14;
export const BUCKETS = 24;
/** Learned factors are clamped to this range before routing uses them. */
export const MIN_FACTOR = 1;
export const MAX_FACTOR = 5;

const DAY_MS = 86_400_000;

interface CellStat {
  weight: number;
  logSum: number;
  samples: number;
  updated: number;
}

export interface SampleInput {
  at: number;
  bucket: number;
  cells: string[];
  observed_s: number;
  static_s: number;
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

  get samples(): number {
    return this.sampleCount;
  }

  isEmpty(): boolean {
    return this.stats.size === 0;
  }

  /** The learned factor of a cell at an hour (undefined: nothing learned there). */
  factor(cell: string, bucket: number): number | undefined {
    const stat = this.stats.get(key(cell, bucket));
    return stat && stat.weight > 0 ? Math.exp(stat.logSum / stat.weight) : undefined;
  }

  /** The learned prediction for a trip: static time × the mean learned log-factor of its cells (1 where none). */
  predict(cells: string[], bucket: number, staticS: number): number {
    if (cells.length === 0) return staticS;
    let logSum = 0;
    for (const cell of cells) logSum += Math.log(this.factor(cell, bucket) ?? 1);
    return staticS * Math.exp(logSum / cells.length);
  }

  add(sample: SampleInput): void {
    const predicted = this.predict(sample.cells, sample.bucket, sample.static_s);
    this.evaluations.push({ at: sample.at, static_ape: Math.abs(sample.static_s - sample.observed_s) / sample.observed_s, learned_ape: Math.abs(predicted - sample.observed_s) / sample.observed_s });
    const logRatio = Math.log(sample.observed_s / sample.static_s);
    for (const cell of new Set(sample.cells)) {
      const k = key(cell, sample.bucket);
      const stat = this.stats.get(k) ?? { weight: 0, logSum: 0, samples: 0, updated: sample.at };
      const decay = Math.pow(0.5, Math.max(0, sample.at - stat.updated) / (LEARNED_HALF_LIFE_DAYS * DAY_MS));
      stat.weight = stat.weight * decay + 1;
      stat.logSum = stat.logSum * decay + logRatio;
      stat.samples++;
      stat.updated = Math.max(stat.updated, sample.at);
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

  /** Every (cell, bucket) with a learned factor. */
  *cells(): Iterable<{ cell: string; bucket: number; factor: number; samples: number }> {
    for (const [k, stat] of this.stats) {
      const [cell, bucket] = k.split('@');
      yield { cell, bucket: Number(bucket), factor: Math.exp(stat.logSum / stat.weight), samples: stat.samples };
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

/**
 * The time-of-day prior per road class (docs/adr/0025): Accra's morning
 * (06–09) and evening (16–19) peaks, a busy midday, a free night.
 */
export const ROAD_CLASSES = ['motorway', 'primary', 'secondary', 'residential'] as const;
const PRIOR: Record<(typeof ROAD_CLASSES)[number], { peak: number; day: number; night: number }> = {
  motorway: { peak: 1.35, day: 1.15, night: 1 },
  primary: { peak: 1.6, day: 1.25, night: 1.02 },
  secondary: { peak: 1.4, day: 1.2, night: 1 },
  residential: { peak: 1.15, day: 1.05, night: 1 },
};

export function priorFactor(roadClass: (typeof ROAD_CLASSES)[number], bucket: number): number {
  const prior = PRIOR[roadClass];
  if ((bucket >= 6 && bucket < 10) || (bucket >= 16 && bucket < 20)) return prior.peak;
  if (bucket >= 10 && bucket < 16) return prior.day;
  return prior.night;
}

/** Weight of the prior in pseudo-samples when blending it with the learned mean of a bucket. */
export const PRIOR_WEIGHT = 5;
