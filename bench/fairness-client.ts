import http from 'node:http';

/**
 * The clients of the fairness bench (bench/fairness.bench.ts), each run in a
 * child process of its own, forked by the bench: the victim, and one per
 * attack. Neither shares an event loop with the service (a separate process
 * too) nor with the other. Each runs for the seconds it is given, then sends
 * back what it measured. No test-runner globals here.
 */

export const FAIRNESS_CLIENT_ENV = 'BENCH_FAIRNESS_CLIENT';

export type ClientJob =
  | {
      role: 'victim';
      base: string;
      seconds: number;
      /** Absent: /health alone (the bare-server floor). */
      usageKey?: string;
      pings?: { key: string; customers: string[] };
      /** A bare handler's /health, called at the same pace meanwhile (series `floor`): what the machine alone adds during this phase. */
      floorBase?: string;
    }
  | { role: 'wide-json'; base: string; seconds: number; clients: number; paths: string[] }
  | { role: 'hexcode-bulk'; base: string; seconds: number; clients: number; key: string; points: number; /** Keys to move on to when one's quota is spent (429): client c takes keys c, c + clients, … */ spareKeys?: string[] }
  | { role: 'cheap-writes'; base: string; seconds: number; clients: number; key: string; customers: string[] }
  | { role: 'portfolio-risk'; base: string; seconds: number; clients: number; key: string; body?: string }
  | { role: 'service-area'; base: string; seconds: number; clients: number; key: string; polygon: unknown }
  | { role: 'audited-burst'; base: string; seconds: number; clients: number; key: string };

export interface ClientResult {
  /** Latencies in ms by series: `health`, `usage`, `ping batch`, `floor` (victim), `attack`. */
  latencies: Record<string, number[]>;
  /** Answers by series and status: `health 200`, `attack 413`… */
  statuses: Record<string, number>;
}

/**
 * Every client goes through node:http with a keep-alive agent rather than
 * fetch: on this 2-core machine fetch alone added ~0.6 ms at p50 and ~3.5 ms
 * at p99 against a bare server (p99 6.1 ms against 2.5 ms), which is the
 * client measuring itself, not the service. The attackers too (docs/adr/0045):
 * with fetch, the cheap-writes attacker's own process took ~40 % of a core
 * for ~150 requests a second, CPU the service and the victim then waited for
 * on the same two cores. A real attacker's client runs on its own machine.
 */
const agent = new http.Agent({ keepAlive: true });

/** Answers the status once the whole answer has been read (0 never: a failed request rejects). */
function send(url: string, options: http.RequestOptions, body?: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { agent, ...options }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
      response.once('error', reject);
    });
    request.once('error', reject);
    request.end(body);
  });
}

function get(url: string, headers: Record<string, string> = {}): Promise<number> {
  return send(url, { method: 'GET', headers });
}

function post(url: string, payload: string, key?: string): Promise<number> {
  const body = Buffer.from(payload);
  return send(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...(key ? { 'x-api-key': key } : {}) } }, body);
}

export type ClientMessage = { ok: true; result: ClientResult } | { ok: false; error: string };

/** Pause between one victim request and its next: a steady, light caller (~100 GETs a second per series). */
const VICTIM_PAUSE_MS = 10;
const PING_BATCH = 100;

async function runJob(job: ClientJob): Promise<ClientResult> {
  const result: ClientResult = { latencies: {}, statuses: {} };
  const deadline = performance.now() + job.seconds * 1000;
  const timed = async (series: string, request: () => Promise<number>) => {
    const started = performance.now();
    let status = 'error';
    try {
      status = String(await request());
    } catch {
      // Counted as `error`: a refused or reset connection is an answer of its own.
    }
    (result.latencies[series] ??= []).push(performance.now() - started);
    result.statuses[`${series} ${status}`] = (result.statuses[`${series} ${status}`] ?? 0) + 1;
  };
  const loop = async (body: (turn: number) => Promise<void>) => {
    for (let turn = 0; performance.now() < deadline; turn++) await body(turn);
  };
  const pause = () => new Promise((resolve) => setTimeout(resolve, VICTIM_PAUSE_MS));

  switch (job.role) {
    case 'victim': {
      const usageKey = job.usageKey;
      const loops = [
        loop(async () => {
          await timed('health', () => get(`${job.base}/health`));
          await pause();
        }),
      ];
      if (usageKey) {
        loops.push(
          loop(async () => {
            await timed('usage', () => get(`${job.base}/v2/usage`, { 'x-api-key': usageKey }));
            await pause();
          }),
        );
      }
      const floorBase = job.floorBase;
      if (floorBase) {
        loops.push(
          loop(async () => {
            await timed('floor', () => get(`${floorBase}/health`));
            await pause();
          }),
        );
      }
      const pings = job.pings;
      if (pings) {
        loops.push(
          loop(async (turn) => {
            const batch = Array.from({ length: PING_BATCH }, (_, i) => ({ customer_id: pings.customers[(turn * PING_BATCH + i) % pings.customers.length], lat: 5.6 + (i % 50) / 1000, lng: -0.187 }));
            await timed('ping batch', () => post(`${job.base}/v2/monitoring/pings`, JSON.stringify({ pings: batch }), pings.key));
            await pause();
          }),
        );
      }
      await Promise.all(loops);
      break;
    }
    case 'wide-json': {
      // issue 31: 3,000 objects of 32 members (744 kB), inside the global size and nesting limits.
      const member = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`f${i}`, i]));
      const payload = JSON.stringify(Array.from({ length: 3000 }, () => member));
      await Promise.all(Array.from({ length: job.clients }, (_, client) => loop((turn) => timed('attack', () => post(`${job.base}${job.paths[(client + turn) % job.paths.length]}`, payload)))));
      break;
    }
    case 'hexcode-bulk': {
      const payload = JSON.stringify({ items: Array.from({ length: job.points }, (_, i) => ({ lat: 5.5 + (i % 1000) / 5000, lng: -0.3 + Math.floor(i / 1000) / 50 })) });
      const keysOf = (client: number) => [job.key, ...(job.spareKeys ?? []).filter((_, index) => index % job.clients === client)];
      await Promise.all(
        Array.from({ length: job.clients }, (_, client) => {
          const keys = keysOf(client);
          let current = 0;
          return loop(() =>
            timed('attack', async () => {
              const status = await post(`${job.base}/v2/hexcode/bulk`, payload, keys[current]);
              if (status === 429 && current < keys.length - 1) current++;
              return status;
            }),
          );
        }),
      );
      break;
    }
    case 'cheap-writes': {
      await Promise.all(
        Array.from({ length: job.clients }, (_, client) =>
          loop((turn) => timed('attack', () => post(`${job.base}/v2/monitoring/pings`, JSON.stringify({ customer_id: job.customers[(client + turn) % job.customers.length], lat: 5.61, lng: -0.19 }), job.key))),
        ),
      );
      break;
    }
    case 'audited-burst': {
      // Cheap keyed GETs as fast as they are answered: each one appends an access event the audit-log read model must apply.
      await Promise.all(Array.from({ length: job.clients }, () => loop(() => timed('attack', () => get(`${job.base}/v2/usage`, { 'x-api-key': job.key })))));
      break;
    }
    case 'service-area': {
      const body = JSON.stringify({ polygon: job.polygon, resolution: 9 });
      await Promise.all(Array.from({ length: job.clients }, () => loop(() => timed('attack', () => post(`${job.base}/v2/service-area`, body, job.key)))));
      break;
    }
    case 'portfolio-risk': {
      await Promise.all(Array.from({ length: job.clients }, () => loop(() => timed('attack', () => post(`${job.base}/v2/analytics/portfolio-risk`, job.body ?? '{}', job.key)))));
      break;
    }
  }
  return result;
}

if (process.env[FAIRNESS_CLIENT_ENV] === '1') {
  process.once('message', (job: ClientJob) => {
    runJob(job).then(
      (result) => process.send!({ ok: true, result } satisfies ClientMessage, () => process.exit(0)),
      (error: unknown) => process.send!({ ok: false, error: error instanceof Error ? error.message : String(error) } satisfies ClientMessage, () => process.exit(1)),
    );
  });
}
