import { fork } from 'node:child_process';
import { LOAD_CHILD_ENV, type LoadMessage, type LoadOutcome, type LoadRequest } from './http-load.js';
import type { Check, Sample } from './report.js';

/**
 * How the benchmarks put load on what they measure: autocannon in a child
 * process (bench/http-load.ts) for GET routes, with this process's CPU time
 * counted over the measured phase; closed-loop clients in this process for
 * anything else; and the enterprise API keys the authenticated routes are
 * loaded with.
 */

/** The phases of one autocannon run, the same for every target of a section. */
export type LoadSettings = Pick<LoadRequest, 'connections' | 'warmupSeconds' | 'seconds' | 'overallRate'>;

export interface MeasuredLoad {
  outcome: LoadOutcome;
  /** CPU time (user + system, every thread) of this process over the measured phase. */
  cpuMicros: number;
}

/** Runs autocannon in a child process against `target`; counts this process's CPU time from the end of the warm-up to the outcome. */
export function runLoad(target: { url: string; headers: Record<string, string>; keys?: string[]; method?: 'GET' | 'POST'; body?: string }, settings: LoadSettings): Promise<MeasuredLoad> {
  const request: LoadRequest = {
    url: target.url,
    method: target.method,
    body: target.body,
    headers: target.headers,
    keys: target.keys,
    connections: settings.connections,
    warmupSeconds: settings.warmupSeconds,
    seconds: settings.seconds,
    overallRate: settings.overallRate,
  };
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./http-load.js', import.meta.url), [], {
      env: { ...process.env, [LOAD_CHILD_ENV]: '1' },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let settled = false;
    let cpuFrom: NodeJS.CpuUsage | undefined;
    child.on('message', (message: LoadMessage) => {
      if ('measuring' in message) {
        cpuFrom = process.cpuUsage();
        return;
      }
      const cpu = process.cpuUsage(cpuFrom);
      settled = true;
      if (!message.ok) reject(new Error(`load generator failed: ${message.error}`));
      else if (!cpuFrom) reject(new Error('load generator reported without a measured phase'));
      else resolve({ outcome: message.outcome, cpuMicros: cpu.user + cpu.system });
    });
    child.once('error', (error) => {
      settled = true;
      reject(error);
    });
    child.once('exit', (code) => {
      if (!settled) reject(new Error(`load generator exited with code ${code} before reporting`));
    });
    child.send(request);
  });
}

/** A run's measured phase as a sample: one op per completed request. */
export function loadSample({ outcome, cpuMicros }: MeasuredLoad): Sample {
  return { ops: outcome.completed, seconds: outcome.seconds, latenciesMs: Array.from(outcome.latenciesMs), cpuMicros };
}

/** `clients` loops in this process, each one request at a time until the deadline; one op per item the requests carried. */
export async function drive(clients: number, seconds: number, request: () => Promise<number>): Promise<Sample> {
  const latenciesMs: number[] = [];
  let items = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const begun = performance.now();
        // Awaited first: `items += await request()` would read `items` before the await and drop the other clients' counts.
        const carried = await request();
        items += carried;
        latenciesMs.push(performance.now() - begun);
      }
    }),
  );
  return { ops: items, seconds: (performance.now() - started) / 1000, latenciesMs };
}

/** Issues an enterprise key (100,000 requests a day) through the admin route of the service at `url`. */
export async function issueKey(url: string, adminKey: string, name: string): Promise<string> {
  const issued = await fetch(`${url}/v2/admin/keys`, {
    method: 'POST',
    headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name, tier: 'enterprise' }),
  });
  if (issued.status !== 201) throw new Error(`could not issue the bench key: HTTP ${issued.status}`);
  return ((await issued.json()) as { data: { key: string } }).data.key;
}

/** A figure counts only when at least this share of its answers were 2xx: otherwise it measured refusals, not the route. */
export const MIN_2XX_SHARE = 0.99;

/** The answers of a target's runs added up: status codes (warm-ups included) and transport errors. */
export interface StatusTally {
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
}

export function emptyTally(): StatusTally {
  return { statusCodes: {}, errors: 0, timeouts: 0 };
}

export function addToTally(tally: StatusTally, outcome: Pick<LoadOutcome, 'statusCodes' | 'errors' | 'timeouts'>): void {
  for (const [code, count] of Object.entries(outcome.statusCodes)) tally.statusCodes[code] = (tally.statusCodes[code] ?? 0) + count;
  tally.errors += outcome.errors;
  tally.timeouts += outcome.timeouts;
}

/** The share of 2xx among every answer and error, and the mix as text: `200 99.2% (38067), 429 0.8% (310)`. */
export function statusMix(tally: StatusTally): { share2xx: number; text: string } {
  const total = Object.values(tally.statusCodes).reduce((sum, count) => sum + count, 0) + tally.errors;
  const ok = Object.entries(tally.statusCodes).reduce((sum, [code, count]) => sum + (code.startsWith('2') ? count : 0), 0);
  const share2xx = total === 0 ? 0 : ok / total;
  const percent = (count: number) => `${((count / Math.max(1, total)) * 100).toFixed(count === total ? 0 : 2)}%`;
  const parts = Object.entries(tally.statusCodes)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, count]) => `${code} ${percent(count)} (${count})`);
  if (tally.errors > 0) parts.push(`errors ${percent(tally.errors)} (${tally.errors}, ${tally.timeouts} time-outs)`);
  return { share2xx, text: total === 0 ? 'no answers' : parts.join(', ') };
}

/**
 * The validity check of a target: every answer 2xx (a refusal, an error, a time-out fails the run). Below
 * MIN_2XX_SHARE the figure is also marked invalid on its row (`invalidNote`), so it cannot be read as the route's.
 */
export function statusCheck(label: string, tally: StatusTally): Check {
  const { share2xx, text } = statusMix(tally);
  const every = share2xx === 1 && tally.timeouts === 0;
  return { name: `${label}: every response 2xx`, ok: every, detail: `status mix ${text}${share2xx < MIN_2XX_SHARE ? ` — INVALID figure: below ${MIN_2XX_SHARE * 100}% 2xx` : ''}` };
}

/** The row note of a figure measured on mostly refused requests; undefined when it is valid. */
export function invalidNote(tally: StatusTally): string | undefined {
  const { share2xx, text } = statusMix(tally);
  return share2xx < MIN_2XX_SHARE ? `INVALID: ${(share2xx * 100).toFixed(1)}% 2xx (${text})` : undefined;
}
