import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { serveHttp, type RunningHttp } from '../apps/api/src/serve.js';
import { AccessRecorder, accessStream, verifyChain, type ApiAccessRecorded } from '../libs/audit/src/index.js';
import { closeBackends, type Runtime } from '../libs/platform/src/index.js';
import { BenchApiModule, BenchController, openBenchRuntime } from './http-bench.module.js';
import type { LoadOutcome } from './http-load.js';
import { addToTally, emptyTally, invalidNote, issueKey, loadSample, runLoad, statusCheck, statusMix, type LoadSettings, type MeasuredLoad, type StatusTally } from './load.js';
import { toRow, type Check, type Row, type Sample, type Section } from './report.js';

/**
 * HTTP throughput of the real pipeline against a bare Fastify handler, both
 * loaded by autocannon (in a child process) with the same connections and
 * duration, in the same run. Besides requests per second, the server
 * process's CPU time per request is measured (`process.cpuUsage`, every
 * thread, so LMDB's write thread counts): on a shared machine it moves less
 * with other load than the rate does.
 *
 * The pipeline is booted with serveHttp, the very function the api and
 * all-in-one processes use, so the access-audit listener is wired exactly as
 * in production: every authenticated request appends its hash-chained event
 * (group-committed, durable) before the answer leaves. Afterwards the chain is
 * verified and its entries counted against what autocannon sent, which proves
 * the figures are for real audited requests.
 *
 * Each target measures what it claims: the per-IP public throttle is raised
 * (THROTTLE_PUBLIC_PER_MINUTE) so the public route answers 200 rather than
 * 429, and every keyed run sends keys of its own in turn, so no run meets the
 * enterprise daily quota. The status mix of every target is reported, and a
 * target with less than 99% 2xx has its figures marked INVALID (any non-2xx
 * fails the run).
 *
 * The audit's own price is the authenticated route with its access append
 * switched off (`unaudited`) against the same route with it on, in the same
 * process: the recorder's `record` is swapped for a no-op for those runs only.
 * The production code has no switch to turn auditing off.
 */

export interface HttpBenchOptions extends LoadSettings {
  /** Rounds alternate the order of the targets so drift of the machine hits all of them alike. */
  rounds: number;
  progress: (line: string) => void;
}

const ENVELOPE = JSON.stringify({ success: true, data: { pong: true } });
const AUDITED_PATH = '/v2/bench/ping';
/** Keys per keyed run, sent in turn: 100,000 requests a day each, and a quiet machine serves more than that in one run. */
const KEYS_PER_RUN = 4;

interface Target {
  id: 'bare' | 'public' | 'unaudited' | 'audited';
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
    runtime = await openBenchRuntime(dataDir, adminKey, {
      // The public route is measured, not its per-IP throttle (600 a minute by default).
      THROTTLE_PUBLIC_PER_MINUTE: '100000000',
    });
    served = await serveHttp(runtime, BenchApiModule.forRoot(runtime, [], [BenchController]), 'bench', { signals: false });

    // Issued enterprise keys (100,000 a day each), so the audited path is the real one:
    // key lookup, liveness check, quota count and the access event. Every keyed run has
    // keys of its own, sent in turn: one key's daily quota does not cover a fast run.
    const benchKey = await issueKey(served.url, adminKey, 'bench');
    const offKey = await issueKey(served.url, adminKey, 'bench, audit off');
    const runKeys: Record<string, string[]> = {};
    for (let round = 0; round < options.rounds; round++) {
      for (const id of ['unaudited', 'audited']) {
        runKeys[`${id}/${round}`] = [];
        for (let k = 0; k < KEYS_PER_RUN; k++) runKeys[`${id}/${round}`].push(await issueKey(served.url, adminKey, `bench ${id}, round ${round + 1}, key ${k + 1}`));
      }
    }

    const targets: Target[] = [
      { id: 'bare', label: 'bare Fastify GET /ping', url: `${bareUrl}/ping`, headers: {} },
      { id: 'public', label: 'Nest pipeline, @Public() route', url: `${served.url}/v2/bench/public`, headers: {} },
      { id: 'unaudited', label: 'Nest pipeline, API key + quota, audit off', url: `${served.url}${AUDITED_PATH}`, headers: { 'x-api-key': offKey } },
      { id: 'audited', label: 'Nest pipeline, API key + quota + audit', url: `${served.url}${AUDITED_PATH}`, headers: { 'x-api-key': benchKey } },
    ];
    const recorder = served.app.get(AccessRecorder);
    const record = recorder.record.bind(recorder);
    // Requests answered while the audit is off; each one autocannon sent must be answered before it is switched
    // back on, or a straggler of the unaudited run would be audited and miscounted below.
    let unrecorded = 0;
    const skip = () => {
      unrecorded++;
      return Promise.resolve();
    };
    const auditing = (on: boolean) => {
      recorder.record = on ? record : skip;
    };
    const checks: Check[] = [await preflight(targets.filter((target) => target.id !== 'unaudited'), served.url)];
    // The key issues and the preflight made one audited request each.
    const issued = 2 + Object.keys(runKeys).length * KEYS_PER_RUN;
    const audited = { completed: issued + 1, sent: issued + 1 };

    const samples: Record<Target['id'], Sample[]> = { bare: [], public: [], unaudited: [], audited: [] };
    const tallies = Object.fromEntries(targets.map((target) => [target.id, emptyTally()])) as Record<Target['id'], StatusTally>;
    const autocannonFigures: Record<string, LoadOutcome['autocannon'][]> = { bare: [], public: [], unaudited: [], audited: [] };

    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) {
        auditing(target.id !== 'unaudited');
        unrecorded = 0;
        let measured: MeasuredLoad;
        try {
          const keys = runKeys[`${target.id}/${round}`];
          measured = await runLoad(keys ? { ...target, keys } : target, options);
          const { outcome } = measured;
          if (target.id === 'unaudited') {
            const expected = outcome.warmupSent + outcome.sent;
            const drained = await until(() => unrecorded >= expected, 10_000);
            if (!drained) throw new Error(`audit-off run: ${unrecorded} of ${expected} requests answered after 10 s`);
          }
        } finally {
          auditing(true);
        }
        const { outcome, cpuMicros } = measured;
        samples[target.id].push(loadSample(measured));
        autocannonFigures[target.id].push(outcome.autocannon);
        addToTally(tallies[target.id], outcome);
        if (target.id === 'audited') {
          audited.completed += outcome.warmupCompleted + outcome.completed;
          audited.sent += outcome.warmupSent + outcome.sent;
        }
        const bad = outcome.non2xx + outcome.errors;
        options.progress(
          `http ${target.label}, round ${round + 1}/${options.rounds}: ${Math.round(outcome.completed / outcome.seconds)} req/s, ` +
            `${(cpuMicros / Math.max(1, outcome.completed)).toFixed(1)} µs CPU/req` +
            (bad > 0 ? `  !! ${outcome.non2xx} non-2xx, ${outcome.errors} errors: ${statusMix({ ...outcome }).text}` : ''),
        );
      }
    }

    for (const target of targets) checks.push(statusCheck(target.label, tallies[target.id]));
    checks.push(await auditCheck(recorder, runtime, audited));

    const label = (id: Target['id']) => targets.find((target) => target.id === id)!.label;
    const note = (id: Target['id']) => invalidNote(tallies[id]);
    const baseline = toRow(label('bare'), 'baseline', samples.bare, undefined, note('bare'));
    const publicRow = toRow(label('public'), 'ours', samples.public, baseline, note('public'));
    const unauditedRow = toRow(label('unaudited'), 'ours', samples.unaudited, baseline, note('unaudited'));
    const auditedRow = toRow(label('audited'), 'ours', samples.audited, baseline, note('audited'));
    // The same figures against the route without the audit: what the audit trail costs on its own (issue #2: at least 0.5×).
    const auditPrice = toRow(`${label('audited')} (vs audit off)`, 'ours', samples.audited, unauditedRow, note('audited'));
    const rows: Row[] = [
      baseline,
      publicRow,
      unauditedRow,
      auditedRow,
      // Against the public route: what key auth, the quota count and the audit append cost together.
      toRow(`${label('audited')} (vs public route)`, 'ours', samples.audited, publicRow, note('audited')),
      auditPrice,
    ];
    checks.push({
      goal: true,
      name: 'issue 49: the @Public() route keeps most of bare Fastify (≥ 0.65× req/s)',
      ok: (publicRow.ratio?.perSecond ?? 0) >= 0.65,
      detail: `@Public() ÷ bare: ${publicRow.ratio?.perSecond.toFixed(2)}× req/s, ${publicRow.ratio?.perCpu?.toFixed(2)}× by CPU per request (${publicRow.cpuUsPerOp} vs ${baseline.cpuUsPerOp} µs)`,
    });
    checks.push({
      goal: true,
      name: 'issue 49: the audit keeps three quarters of the throughput (audited ÷ audit off ≥ 0.75; issue #2 asked 0.5)',
      ok: (auditPrice.ratio?.perSecond ?? 0) >= 0.75,
      detail:
        `audited ÷ audit off: ${auditPrice.ratio?.perSecond.toFixed(2)}× req/s, ${auditPrice.ratio?.perCpu?.toFixed(2)}× by CPU per request ` +
        `(${auditPrice.cpuUsPerOp} vs ${unauditedRow.cpuUsPerOp} µs)`,
    });
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
        load_generator: 'autocannon in a child process; latency per response from its response event',
        cpu: 'process.cpuUsage() of the server process (all its threads) over the measured phase, per completed request',
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
  const entries = events.map((event) => event.data as ApiAccessRecorded['data']);
  const verdict = verifyChain(entries);
  // The requests that issued the bench keys are expected; anything else is not.
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

/** Polls `condition` until it holds (true) or `timeoutMs` passes (false). */
async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}
