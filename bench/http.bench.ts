import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import { serveHttp, type RunningHttp } from '../apps/api/src/serve.js';
import { openRuntime } from '../apps/shared/runtime.js';
import { AccessRecorder, accessStream, verifyChain, type ApiAccessRecorded } from '../libs/audit/src/index.js';
import { closeBackends, type Runtime } from '../libs/platform/src/index.js';
import { HttpBenchModule } from './http-bench.module.js';
import type { LoadMessage, LoadOutcome, LoadRequest } from './http-load.js';
import { toRow, type Check, type Row, type Sample, type Section } from './report.js';

/**
 * HTTP throughput of the real pipeline against a bare Fastify handler, both
 * loaded by autocannon (in a worker thread) with the same connections and
 * duration, in the same run.
 *
 * The pipeline is booted with serveHttp, the very function the api and
 * all-in-one processes use, so the access-audit listener is wired exactly as
 * in production: every authenticated request appends its hash-chained event
 * (group-committed, durable) before the answer leaves. Afterwards the chain is
 * verified and its entries counted against what autocannon sent, which proves
 * the figures are for real audited requests.
 */

export interface HttpBenchOptions {
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Rounds alternate the order of the targets so drift of the machine hits all of them alike. */
  rounds: number;
  progress: (line: string) => void;
}

const ENVELOPE = JSON.stringify({ success: true, data: { pong: true } });
const AUDITED_PATH = '/v2/bench/ping';

interface Target {
  id: 'bare' | 'public' | 'audited';
  label: string;
  url: string;
  headers: Record<string, string>;
}

export async function runHttpBench(options: HttpBenchOptions): Promise<Section> {
  const bare = Fastify();
  bare.get('/ping', async () => ({ success: true, data: { pong: true } }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;

  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-http-'));
  const adminKey = randomBytes(24).toString('base64url');
  let runtime: Runtime | undefined;
  let served: RunningHttp | undefined;

  try {
    runtime = await openRuntime('location-api-bench', {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      ADMIN_API_KEY: adminKey,
      LOG_LEVEL: 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
    });
    served = await serveHttp(runtime, HttpBenchModule.forRoot(runtime), 'bench', { signals: false });

    // An issued enterprise key (100,000 a day), so the audited path is the real one:
    // key lookup, liveness check, quota count and the access event.
    const issued = await fetch(`${served.url}/v2/admin/keys`, {
      method: 'POST',
      headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', tier: 'enterprise' }),
    });
    if (issued.status !== 201) throw new Error(`could not issue the bench key: HTTP ${issued.status}`);
    const benchKey = ((await issued.json()) as { data: { key: string } }).data.key;

    const targets: Target[] = [
      { id: 'bare', label: 'bare Fastify GET /ping', url: `${bareUrl}/ping`, headers: {} },
      { id: 'public', label: 'Nest pipeline, @Public() route', url: `${served.url}/v2/bench/public`, headers: {} },
      { id: 'audited', label: 'Nest pipeline, API key + quota + audit', url: `${served.url}${AUDITED_PATH}`, headers: { 'x-api-key': benchKey } },
    ];
    const checks: Check[] = [await preflight(targets, served.url)];
    // The key issue and the preflight made one audited request each.
    const audited = { completed: 2, sent: 2 };

    const samples: Record<Target['id'], Sample[]> = { bare: [], public: [], audited: [] };
    const failures: Record<Target['id'], { non2xx: number; errors: number; timeouts: number; statusCodes: Record<string, number> }> = {
      bare: { non2xx: 0, errors: 0, timeouts: 0, statusCodes: {} },
      public: { non2xx: 0, errors: 0, timeouts: 0, statusCodes: {} },
      audited: { non2xx: 0, errors: 0, timeouts: 0, statusCodes: {} },
    };
    const autocannonFigures: Record<string, LoadOutcome['autocannon'][]> = { bare: [], public: [], audited: [] };

    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) {
        const outcome = await runLoad({
          url: target.url,
          headers: target.headers,
          connections: options.connections,
          warmupSeconds: options.warmupSeconds,
          seconds: options.seconds,
        });
        samples[target.id].push({ ops: outcome.completed, seconds: outcome.seconds, latenciesMs: Array.from(outcome.latenciesMs) });
        autocannonFigures[target.id].push(outcome.autocannon);
        const failed = failures[target.id];
        failed.non2xx += outcome.non2xx;
        failed.errors += outcome.errors;
        failed.timeouts += outcome.timeouts;
        for (const [code, count] of Object.entries(outcome.statusCodes)) failed.statusCodes[code] = (failed.statusCodes[code] ?? 0) + count;
        if (target.id === 'audited') {
          audited.completed += outcome.warmupCompleted + outcome.completed;
          audited.sent += outcome.warmupSent + outcome.sent;
        }
        const bad = outcome.non2xx + outcome.errors;
        options.progress(
          `http ${target.label}, round ${round + 1}/${options.rounds}: ${Math.round(outcome.completed / outcome.seconds)} req/s` +
            (bad > 0 ? `  !! ${outcome.non2xx} non-2xx, ${outcome.errors} errors (${JSON.stringify(outcome.statusCodes)})` : ''),
        );
      }
    }

    for (const target of targets) {
      const failed = failures[target.id];
      checks.push({
        name: `${target.label}: every response 2xx`,
        ok: failed.non2xx === 0 && failed.errors === 0,
        detail: `non2xx ${failed.non2xx}, errors ${failed.errors}, timeouts ${failed.timeouts}, status codes ${JSON.stringify(failed.statusCodes)}`,
      });
    }
    checks.push(await auditCheck(served.app.get(AccessRecorder), runtime, audited));

    const baseline = toRow(targets[0].label, 'baseline', samples.bare);
    const publicRow = toRow(targets[1].label, 'ours', samples.public, baseline);
    const rows: Row[] = [
      baseline,
      publicRow,
      toRow(targets[2].label, 'ours', samples.audited, baseline),
      // The same figures against the public route: what key auth and the audit append cost on their own.
      toRow(`${targets[2].label} (vs public route)`, 'ours', samples.audited, publicRow),
    ];
    return {
      id: `http-${options.connections}`,
      title: `HTTP vs bare Fastify (autocannon, ${options.connections} connections; ratio = row ÷ the row named on the right)`,
      unit: 'req',
      settings: {
        connections: options.connections,
        warmup_seconds: options.warmupSeconds,
        seconds_per_round: options.seconds,
        rounds: options.rounds,
        log_level: 'silent',
        load_generator: 'autocannon in a worker thread; latency per response from its response event',
        autocannon_whole_ms_figures: autocannonFigures,
      },
      rows,
      checks,
    };
  } finally {
    // serveHttp's close drains requests, flushes the audit recorder and closes the backends, as on SIGTERM.
    if (served) await served.close();
    else if (runtime) await closeBackends(runtime.backends);
    await bare.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each target answers the expected body, and the audited route really refuses a request without a key. */
async function preflight(targets: Target[], servedUrl: string): Promise<Check> {
  const problems: string[] = [];
  for (const target of targets) {
    const response = await fetch(target.url, { headers: target.headers });
    const body = await response.text();
    if (response.status !== 200 || body !== ENVELOPE) problems.push(`${target.label} answered ${response.status} ${body}`);
  }
  const keyless = await fetch(`${servedUrl}${AUDITED_PATH}`);
  await keyless.text();
  if (keyless.status !== 401) problems.push(`${AUDITED_PATH} without a key answered ${keyless.status}, expected 401`);
  return {
    name: 'preflight',
    ok: problems.length === 0,
    detail: problems.length === 0 ? `all three answer ${ENVELOPE}; ${AUDITED_PATH} without a key answers 401` : problems.join('; '),
  };
}

/**
 * The chain must verify, and hold one entry per audited request: at least
 * every request autocannon saw answered, at most every one it sent (a request
 * in flight when autocannon stopped was answered, and audited, after it hung up).
 */
async function auditCheck(
  recorder: AccessRecorder,
  runtime: Runtime,
  audited: { completed: number; sent: number },
): Promise<Check> {
  // Let requests abandoned by autocannon's last run finish their append.
  await recorder.flush();
  await new Promise((resolve) => setTimeout(resolve, 250));
  await recorder.flush();
  const events = await runtime.backends.events.readStream(accessStream(null));
  const entries = events.map((event) => event.data as unknown as ApiAccessRecorded['data']);
  const verdict = verifyChain(entries);
  // The one request that issued the bench key is expected; anything else is not.
  const foreign = entries.filter((entry) => !(entry.path === AUDITED_PATH && entry.status === 200) && !(entry.path === '/v2/admin/keys' && entry.status === 201)).length;
  const counted = entries.length >= audited.completed && entries.length <= audited.sent;
  const ok = verdict.ok && counted && foreign === 0;
  const chain = verdict.ok ? `chain intact (${verdict.entries} entries)` : `chain BROKEN at entry ${verdict.brokenAt}: ${verdict.reason}`;
  return {
    name: 'audit trail',
    ok,
    detail:
      `${chain}; ${entries.length} access events recorded for ${audited.completed} audited requests completed ` +
      `(${audited.sent} sent, incl. warm-ups and the preflight)` +
      (counted ? '' : ' — count out of range') +
      (foreign > 0 ? `; ${foreign} entries for another path or a non-200 status` : ''),
  };
}

function runLoad(request: LoadRequest): Promise<LoadOutcome> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./http-load.js', import.meta.url), { workerData: { benchLoad: request } });
    let settled = false;
    worker.once('message', (message: LoadMessage) => {
      settled = true;
      void worker.terminate();
      if (message.ok) resolve(message.outcome);
      else reject(new Error(`load generator failed: ${message.error}`));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`load generator exited with code ${code} before reporting`));
    });
  });
}
