/**
 * What every benchmark hands back, and how it is printed. The machine is noisy
 * (2 shared cores), so an absolute figure means little on its own: each row of
 * ours names a baseline measured in the same run, and the ratio is what to read.
 */

/** One measured series: operations completed, over how long, and each one's latency. */
export interface Sample {
  ops: number;
  seconds: number;
  latenciesMs: number[];
  /**
   * CPU time (user + system, every thread) the measured process spent over the
   * sample, in microseconds; only where the load comes from another process.
   */
  cpuMicros?: number;
}

export interface Row {
  case: string;
  /** `reference` rows are shown for context and compared with nothing. */
  role: 'baseline' | 'ours' | 'reference';
  /** The `case` of the row this one is divided by. */
  baseline?: string;
  ops: number;
  seconds: number;
  perSecond: number;
  /** Each round's own rate: how far apart they are shows how noisy the machine was. */
  perSecondByRound: number[];
  p50Ms?: number;
  p99Ms?: number;
  /** CPU time per operation, in microseconds (see Sample.cpuMicros). */
  cpuUsPerOp?: number;
  /**
   * ours ÷ baseline: throughput below 1, or latency or CPU above 1, means slower than the baseline.
   * `perCpu` is baseline CPU per op ÷ ours: the throughput ratio the CPU cost alone predicts, noise of other load aside.
   */
  ratio?: { perSecond: number; p50?: number; p99?: number; perCpu?: number };
  note?: string;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /**
   * A performance target rather than a validity check: reported as met or
   * missed, without failing the run (on a shared machine a figure can miss by noise).
   */
  goal?: boolean;
}

export interface Section {
  id: string;
  title: string;
  /** What one operation is (an append, a request). */
  unit: string;
  settings: Record<string, unknown>;
  rows: Row[];
  checks: Check[];
}

/** Rounds of the same case are pooled: operations and time add up, latencies are merged. */
function pool(samples: Sample[]): Sample {
  return {
    ops: samples.reduce((sum, s) => sum + s.ops, 0),
    seconds: samples.reduce((sum, s) => sum + s.seconds, 0),
    latenciesMs: samples.flatMap((s) => s.latenciesMs),
    cpuMicros: samples.every((s) => s.cpuMicros !== undefined) ? samples.reduce((sum, s) => sum + (s.cpuMicros ?? 0), 0) : undefined,
  };
}

/** Nearest-rank percentile of unsorted values; undefined when there are none. */
export function percentile(values: number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function toRow(name: string, role: Row['role'], rounds: Sample[], baseline?: Row, note?: string): Row {
  const sample = pool(rounds);
  // A figure measured on refusals is marked where it is read, and so is every ratio against it.
  const notes = [note, baseline?.note?.startsWith('INVALID') ? `baseline ${baseline.note}` : undefined].filter(Boolean).join('; ') || undefined;
  const row: Row = {
    case: name,
    role,
    ops: sample.ops,
    seconds: round(sample.seconds, 3),
    perSecond: rate(sample),
    perSecondByRound: rounds.map(rate),
    p50Ms: roundMaybe(percentile(sample.latenciesMs, 50), 3),
    p99Ms: roundMaybe(percentile(sample.latenciesMs, 99), 3),
    cpuUsPerOp: sample.cpuMicros !== undefined && sample.ops > 0 ? round(sample.cpuMicros / sample.ops, 1) : undefined,
    note: notes,
  };
  if (baseline) {
    row.baseline = baseline.case;
    row.ratio = {
      perSecond: round(row.perSecond / baseline.perSecond, 3),
      p50: row.p50Ms !== undefined && baseline.p50Ms ? round(row.p50Ms / baseline.p50Ms, 3) : undefined,
      p99: row.p99Ms !== undefined && baseline.p99Ms ? round(row.p99Ms / baseline.p99Ms, 3) : undefined,
      perCpu: row.cpuUsPerOp && baseline.cpuUsPerOp ? round(baseline.cpuUsPerOp / row.cpuUsPerOp, 3) : undefined,
    };
  }
  return row;
}

export function renderSection(section: Section): string {
  const withCpu = section.rows.some((row) => row.cpuUsPerOp !== undefined);
  const header = ['case', `${section.unit}/s`, 'p50 ms', 'p99 ms', `×${section.unit}/s`, '×p50', '×p99', ...(withCpu ? [`CPU µs/${section.unit}`, '×(1/CPU)'] : []), 'compared with'];
  const body = section.rows.map((row) => [
    row.case,
    fixed(row.perSecond, 0),
    row.p50Ms === undefined ? '—' : fixed(row.p50Ms, 3),
    row.p99Ms === undefined ? '—' : fixed(row.p99Ms, 3),
    row.ratio ? times(row.ratio.perSecond) : row.role === 'baseline' ? 'baseline' : '—',
    row.ratio?.p50 === undefined ? (row.role === 'baseline' ? 'baseline' : '—') : times(row.ratio.p50),
    row.ratio?.p99 === undefined ? (row.role === 'baseline' ? 'baseline' : '—') : times(row.ratio.p99),
    ...(withCpu
      ? [
          row.cpuUsPerOp === undefined ? '—' : fixed(row.cpuUsPerOp, 1),
          row.ratio?.perCpu === undefined ? (row.role === 'baseline' && row.cpuUsPerOp !== undefined ? 'baseline' : '—') : times(row.ratio.perCpu),
        ]
      : []),
    [row.baseline, row.note ? `(${row.note})` : undefined].filter(Boolean).join(' '),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column].length)));
  const numeric = new Set(withCpu ? [1, 2, 3, 4, 5, 6, 7, 8] : [1, 2, 3, 4, 5, 6]);
  const line = (cells: string[]) =>
    cells.map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join('  ').trimEnd();
  const out = section.rows.length === 0 ? [section.title] : [section.title, line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)];
  for (const check of section.checks) {
    const verdict = check.goal ? (check.ok ? 'goal met' : 'goal MISSED') : check.ok ? 'ok  ' : '!! FAILED';
    out.push(`${verdict} ${check.name}: ${check.detail}`);
  }
  return out.join('\n');
}

function rate(sample: Sample): number {
  return sample.seconds > 0 ? round(sample.ops / sample.seconds, 1) : 0;
}

function times(ratio: number): string {
  return `${ratio.toFixed(2)}×`;
}

function fixed(value: number, digits: number): string {
  return value.toFixed(digits);
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function roundMaybe(value: number | undefined, digits: number): number | undefined {
  return value === undefined ? undefined : round(value, digits);
}
