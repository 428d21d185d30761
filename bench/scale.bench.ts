import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { addToTally, emptyTally, issueKey, loadSample, runLoad, statusCheck, type MeasuredLoad } from './load.js';
import { toRow, type Check, type Row, type Sample, type Section } from './report.js';

/**
 * `npm run bench -- scale` (issue 48): what a second process buys on the
 * production adapters (Redis, Kafka, the MongoDB wire server; the embedded
 * event store on one shared DATA_DIR, as test/topology/production runs it).
 *
 * - Audited `GET /v2/reverse`: autocannon against one api process, then the
 *   same connections split over two api processes, in every round (the order
 *   alternating), the same load generator.
 * - A heavy job mix: webhook deliveries. With the delivery queue paused, a
 *   burst of consent revocations is appended (the fan-out, on the worker
 *   holding the followers lease, enqueues one `consent_revoked` delivery
 *   each); then the queue resumes and one worker (or two) delivers them to a
 *   receiver on loopback: deliveries per second from the resume to the last.
 *
 * Each phase records every process's CPU time (from /proc: the apis, the
 * workers, the load generator, Redis, Kafka and the MongoDB wire server), as
 * a share of one core, so the note says what limits the ratio on this
 * machine. Without the servers' URLs (MONGODB_TEST_URL or MONGODB_URL,
 * REDIS_URL, KAFKA_BROKERS) it prints a skip line.
 */

export interface ScaleBenchOptions {
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number;
  /** Webhook deliveries per job round. */
  deliveries: number;
  progress: (line: string) => void;
}

const root = fileURLToPath(new URL('../../', import.meta.url));
const GOAL_RATIO = 1.5;
const REVERSE_PATH = '/v2/reverse?lat=5.6037&lng=-0.187';
/** Enterprise keys the load turns over (100,000 requests a day each). */
const KEYS = 8;
/** A Redis database of its own, emptied first (the topology test uses 13). */
const REDIS_DB = 12;
const TICKS_PER_SECOND = 100;
/** The webhook delivery queue (libs/webhooks/src/delivery/webhook-jobs.ts) under BullMQ's default prefix. */
const WEBHOOK_QUEUE = 'webhooks';

interface Proc {
  name: string;
  role: 'api' | 'worker';
  port: number;
  child?: ChildProcess;
  log: string[];
  /** Stopped by the bench (SIGTERM), not on its own. */
  stopping?: boolean;
}

export async function runScaleBench(options: ScaleBenchOptions): Promise<Section> {
  const mongoUrl = process.env.MONGODB_TEST_URL ?? process.env.MONGODB_URL;
  const redisUrl = process.env.REDIS_URL;
  const kafkaBrokers = process.env.KAFKA_BROKERS;
  const missing = [!mongoUrl && 'MONGODB_TEST_URL (or MONGODB_URL)', !redisUrl && 'REDIS_URL', !kafkaBrokers && 'KAFKA_BROKERS'].filter((name): name is string => typeof name === 'string');
  if (missing.length > 0) {
    const line = `scale: skipped: ${missing.join(', ')} not set (the production adapters' servers; eval "$(.ci/services.sh env)")`;
    options.progress(line);
    return { id: 'scale', title: line, unit: 'req', settings: { skipped: missing }, rows: [], checks: [] };
  }

  const run = randomBytes(4).toString('hex');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-scale-'));
  const database = `bench_scale_${run}`;
  const adminKey = randomBytes(24).toString('base64url');
  const encryptionKey = randomBytes(32).toString('base64');
  const basePort = 24_000 + Math.floor(Math.random() * 900) * 4;
  const redisDb = new URL(redisUrl!);
  redisDb.pathname = `/${REDIS_DB}`;
  const apis: Proc[] = [
    { name: 'api-1', role: 'api', port: basePort, log: [] },
    { name: 'api-2', role: 'api', port: basePort + 1, log: [] },
  ];
  const workers: Proc[] = [
    { name: 'worker-1', role: 'worker', port: basePort + 2, log: [] },
    { name: 'worker-2', role: 'worker', port: basePort + 3, log: [] },
  ];
  const environment = (proc: Proc): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    EVENTSTORE_URL: '',
    MONGODB_URL: mongoUrl,
    MONGODB_DATABASE: database,
    REDIS_URL: redisDb.toString(),
    KAFKA_BROKERS: kafkaBrokers,
    KAFKA_TOPIC_PREFIX: `bench-scale-${run}`,
    DATA_ENCRYPTION_KEY: encryptionKey,
    ADMIN_API_KEY: adminKey,
    PUBLIC_BASE_URL: `http://127.0.0.1:${basePort}`,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    STARTER_DATA: 'false',
    TRANSIT_WORKERS: '0',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SIGNUP_LIMIT_PER_IP_PER_HOUR: '100000',
    ...(proc.role === 'api' ? { PORT: String(proc.port) } : { HEALTH_PORT: String(proc.port) }),
  });
  const start = (proc: Proc) => {
    proc.stopping = false;
    const child = spawn(process.execPath, [path.join(root, `dist/apps/${proc.role}/src/main.js`)], { cwd: root, env: environment(proc), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk: Buffer) => keepTail(proc.log, chunk));
    child.stderr!.on('data', (chunk: Buffer) => keepTail(proc.log, chunk));
    proc.child = child;
    child.once('exit', (code, signal) => {
      if (!proc.stopping) options.progress(`!! scale: ${proc.name} exited (${code ?? signal}): ${proc.log.join('').slice(-1500)}`);
    });
  };
  const stop = async (proc: Proc) => {
    const child = proc.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    proc.stopping = true;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  const ready = async (proc: Proc, timeoutMs = 180_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (proc.child?.exitCode !== null && proc.child?.exitCode !== undefined) throw new Error(`${proc.name} exited ${proc.child.exitCode}: ${proc.log.join('').slice(-1500)}`);
      try {
        if ((await fetch(`http://127.0.0.1:${proc.port}/health/ready`)).status === 200) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`${proc.name} not ready within ${timeoutMs} ms: ${proc.log.join('').slice(-1500)}`);
      await pause(200);
    }
  };

  const redis = new Redis(redisDb.toString());
  await redis.flushdb();
  await redis.quit();
  const receiver = await startReceiver();
  try {
    options.progress('scale: starting two api processes and a worker on the production adapters');
    start(apis[0]!);
    await ready(apis[0]!);
    start(apis[1]!);
    start(workers[0]!);
    await Promise.all([ready(apis[1]!), ready(workers[0]!)]);
    const base = (api: Proc) => `http://127.0.0.1:${api.port}`;
    const keys: string[] = [];
    for (let i = 0; i < KEYS; i++) keys.push(await issueKey(base(apis[0]!), adminKey, `scale-${i + 1}`));
    for (const api of apis) {
      const answer = await fetch(`${base(api)}${REVERSE_PATH}`, { headers: { 'x-api-key': keys[0]! } });
      if (answer.status !== 200) throw new Error(`GET ${REVERSE_PATH} on ${api.name} answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
    }

    // Audited reverse: one api against two, the same total connections.
    const tally = emptyTally();
    const one: Sample[] = [];
    const two: Sample[] = [];
    const cpuOne: CpuShares[] = [];
    const cpuTwo: CpuShares[] = [];
    const load = (api: Proc, connections: number) =>
      runLoad({ url: `${base(api)}${REVERSE_PATH}`, headers: {}, keys }, { connections, warmupSeconds: options.warmupSeconds, seconds: options.seconds });
    const measure = async (procs: Proc[], what: () => Promise<MeasuredLoad[]>) => {
      let from: CpuTimes | undefined;
      const mark = setTimeout(() => {
        from = cpuTimes([...apis, ...workers]);
      }, options.warmupSeconds * 1000);
      const outcomes = await what();
      clearTimeout(mark);
      const shares = cpuShares(from ?? cpuTimes([...apis, ...workers]), cpuTimes([...apis, ...workers]));
      for (const outcome of outcomes) addToTally(tally, outcome.outcome);
      const samples = outcomes.map(loadSample);
      const sample: Sample = { ops: samples.reduce((sum, s) => sum + s.ops, 0), seconds: Math.max(...samples.map((s) => s.seconds)), latenciesMs: samples.flatMap((s) => s.latenciesMs) };
      options.progress(`scale: ${procs.length} api: ${(sample.ops / sample.seconds).toFixed(0)} req/s; CPU ${describeShares(shares)}`);
      return { sample, shares };
    };
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? ['one', 'two'] : ['two', 'one'];
      for (const which of order) {
        if (which === 'one') {
          const { sample, shares } = await measure([apis[0]!], async () => [await load(apis[0]!, options.connections)]);
          one.push(sample);
          cpuOne.push(shares);
        } else {
          const half = Math.floor(options.connections / 2);
          const { sample, shares } = await measure(apis, () => Promise.all([load(apis[0]!, half), load(apis[1]!, options.connections - half)]));
          two.push(sample);
          cpuTwo.push(shares);
        }
      }
    }
    const oneRow = toRow('audited GET /v2/reverse, one api process', 'baseline', one, undefined, `CPU ${describeShares(mergeShares(cpuOne))}`);
    const twoRow = toRow('audited GET /v2/reverse, two api processes', 'ours', two, oneRow, `CPU ${describeShares(mergeShares(cpuTwo))}`);

    // The job mix: webhook deliveries of a burst of revocations, one worker against two, for an account of its own.
    const lender = await tenant(base(apis[0]!), adminKey, run);
    const account = await (await fetch(`${base(apis[0]!)}/v2/webhooks/configure`, {
      method: 'POST',
      headers: { 'x-api-key': lender, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, secret: 'bench-scale-webhook-secret', event_types: ['consent_revoked'] }),
    })).json() as { error?: unknown };
    if (account.error) throw new Error(`webhook configuration refused: ${JSON.stringify(account.error)}`);
    const jobRows: Row[] = [];
    const jobSamples: Record<'1' | '2', Sample[]> = { '1': [], '2': [] };
    const jobCpu: Record<'1' | '2', CpuShares[]> = { '1': [], '2': [] };
    const jobOrder: Array<1 | 2> = options.rounds > 1 ? [1, 2, 2, 1] : [1, 2];
    // The delivery queue is paused while the burst is appended (the commands wait for the projections, so the
    // holder of the followers lease runs throughout) and its deliveries pile up; resumed, they drain over the workers.
    const deliveries = new Queue(WEBHOOK_QUEUE, { connection: { url: redisDb.toString() }, prefix: 'bull' });
    try {
      for (const [index, count] of jobOrder.entries()) {
        if (count === 2) {
          if (!workers[1]!.child || workers[1]!.child.exitCode !== null || workers[1]!.child.signalCode !== null) start(workers[1]!);
        } else await stop(workers[1]!);
        await Promise.all(workers.slice(0, count).map((worker) => ready(worker)));
        await deliveries.pause();
        const customers = Array.from({ length: options.deliveries }, (_, i) => `scale-${run}-${index}-${i}`);
        await burst(apis.map(base), lender, customers);
        // Every delivery enqueued (the fan-out follows the log on the lease holder) before the queue resumes.
        const queuedBy = Date.now() + 120_000;
        while ((await deliveries.getJobCountByTypes('waiting', 'prioritized')) < customers.length) {
          if (Date.now() > queuedBy) throw new Error(`the fan-out did not enqueue ${customers.length} deliveries within 120 s`);
          await pause(100);
        }
        const wanted = new Set(customers);
        const from = cpuTimes([...apis, ...workers]);
        const resumed = Date.now();
        await deliveries.resume();
        const arrivals = await receiver.waitFor(wanted, 240_000);
        const to = cpuTimes([...apis, ...workers]);
        const last = Math.max(...arrivals);
        const sample: Sample = { ops: arrivals.length, seconds: Math.max(0.001, (last - resumed) / 1000), latenciesMs: arrivals.map((at) => at - resumed) };
        jobSamples[String(count) as '1' | '2'].push(sample);
        const shares = cpuShares(from, to);
        jobCpu[String(count) as '1' | '2'].push(shares);
        options.progress(`scale: ${count} worker(s): ${customers.length} deliveries in ${sample.seconds.toFixed(1)} s after the queue resumed, ${(sample.ops / sample.seconds).toFixed(0)}/s; CPU ${describeShares(shares)}`);
      }
    } finally {
      await deliveries.close();
    }
    const oneWorker = toRow('consent_revoked webhook deliveries, one worker', 'baseline', jobSamples['1'], undefined, `CPU ${describeShares(mergeShares(jobCpu['1']))}`);
    jobRows.push(oneWorker, toRow('consent_revoked webhook deliveries, two workers', 'ours', jobSamples['2'], oneWorker, `CPU ${describeShares(mergeShares(jobCpu['2']))}`));

    const ratio = twoRow.ratio!.perSecond;
    const checks: Check[] = [
      statusCheck('audited reverse answers', tally),
      { name: `two api processes serve ≥ ${GOAL_RATIO}× the audited reverse throughput of one`, ok: ratio >= GOAL_RATIO, goal: true, detail: `${ratio.toFixed(2)}× (${twoRow.perSecond} against ${oneRow.perSecond} req/s)` },
    ];
    return {
      id: 'scale',
      title: `scale: one process against two on the production adapters (Redis, Kafka, MongoDB wire server), ${options.connections} connections, ${options.seconds} s × ${options.rounds} rounds; CPU as % of one core`,
      unit: 'op',
      settings: { connections: options.connections, seconds: options.seconds, rounds: options.rounds, deliveries: options.deliveries, keys: KEYS, path: REVERSE_PATH },
      rows: [oneRow, twoRow, ...jobRows],
      checks,
    };
  } finally {
    for (const proc of [...apis, ...workers]) await stop(proc);
    await receiver.close();
    const client = new MongoClient(mongoUrl!);
    await client.db(database).dropDatabase().catch(() => undefined);
    await client.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function keepTail(log: string[], chunk: Buffer): void {
  log.push(chunk.toString());
  if (log.length > 200) log.splice(0, log.length - 200);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A signed-up account on the enterprise tier (an issued key belongs to no account: webhooks and consent need one). */
async function tenant(base: string, adminKey: string, run: string): Promise<string> {
  const call = async (method: string, route: string, key: string | undefined, body?: unknown) => {
    const response = await fetch(`${base}${route}`, { method, headers: { ...(key ? { 'x-api-key': key } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const answer = (await response.json()) as { data?: Record<string, unknown>; error?: unknown };
    if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(answer.error)}`);
    return answer.data!;
  };
  const key = String((await call('POST', '/v2/self/signup', undefined, { name: 'Scale lender', email: `scale-${run}@example.com` })).key);
  const me = await call('GET', '/v2/me', key);
  await call('PUT', `/v2/admin/accounts/${String(me.account_id)}/tier`, adminKey, { tier: 'enterprise' });
  return key;
}

/** Grants then revokes each customer, eight at a time over both apis: one consent_revoked webhook each. */
async function burst(bases: string[], key: string, customers: string[]): Promise<void> {
  let next = 0;
  const post = async (base: string, route: string, customer: string, extra: Record<string, unknown> = {}) => {
    const response = await fetch(`${base}${route}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ customer_id: customer, ...extra }) });
    if (response.status !== 200) throw new Error(`POST ${route} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  };
  await Promise.all(
    Array.from({ length: 8 }, async (_, client) => {
      const base = bases[client % bases.length]!;
      while (next < customers.length) {
        const customer = customers[next++]!;
        await post(base, '/v2/consent/grant', customer, { purpose: 'loan_collections' });
        await post(base, '/v2/consent/revoke', customer);
      }
    }),
  );
}

async function startReceiver() {
  const arrived = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { customer_id?: string };
        if (request.headers['x-webhook-event'] === 'consent_revoked' && body.customer_id && !arrived.has(body.customer_id)) arrived.set(body.customer_id, Date.now());
      } catch {
        // Not JSON: not counted.
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    /** Arrival times of the first delivery for each of `customers`, once all arrived. */
    async waitFor(customers: Set<string>, timeoutMs: number): Promise<number[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const times = [...customers].map((customer) => arrived.get(customer)).filter((at): at is number => at !== undefined);
        if (times.length === customers.size) return times;
        if (Date.now() > deadline) throw new Error(`${customers.size - times.length} of ${customers.size} webhooks not delivered within ${timeoutMs} ms`);
        await pause(50);
      }
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** CPU ticks (user + system) per labelled process at one instant: ours by pid, the servers and the load generator found by command line. */
type CpuTimes = { at: number; ticks: Map<string, number> };
type CpuShares = Map<string, number>;

function ticksOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are the 14th and 15th fields: the 12th and 13th after the command name.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

function labelOf(cmdline: string): string | undefined {
  if (cmdline.includes('http-load.js')) return 'load generator';
  if (/redis-server/.test(cmdline)) return 'redis';
  if (/kafka\.Kafka|kafka-server|\bkafka\b/i.test(cmdline)) return 'kafka';
  if (/mongo/i.test(cmdline) && /java/.test(cmdline)) return 'mongo wire server';
  if (/graphhopper/i.test(cmdline)) return 'graphhopper';
  return undefined;
}

function cpuTimes(procs: Proc[]): CpuTimes {
  const ticks = new Map<string, number>();
  const add = (label: string, value: number | undefined) => {
    if (value !== undefined) ticks.set(label, (ticks.get(label) ?? 0) + value);
  };
  for (const proc of procs) if (proc.child?.pid && proc.child.exitCode === null) add(proc.name, ticksOf(proc.child.pid));
  add('bench (this process)', ticksOf(process.pid));
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      continue;
    }
    const label = labelOf(cmdline);
    if (label) add(label, ticksOf(Number(entry)));
  }
  // Everything on the machine (other helpers included): the first line of /proc/stat, less idle and iowait.
  const all = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  add('machine (all processes)', all.reduce((sum, value) => sum + value, 0) - (all[3] ?? 0) - (all[4] ?? 0));
  return { at: performance.now(), ticks };
}

/** Percent of one core each process used between two readings. */
function cpuShares(from: CpuTimes, to: CpuTimes): CpuShares {
  const seconds = (to.at - from.at) / 1000;
  const shares: CpuShares = new Map();
  for (const [label, ticks] of to.ticks) {
    const before = from.ticks.get(label);
    if (before === undefined || seconds <= 0) continue;
    shares.set(label, Math.round(((ticks - before) / TICKS_PER_SECOND / seconds) * 100));
  }
  return shares;
}

function mergeShares(all: CpuShares[]): CpuShares {
  const merged: CpuShares = new Map();
  for (const shares of all) for (const [label, share] of shares) merged.set(label, (merged.get(label) ?? 0) + share / all.length);
  for (const [label, share] of merged) merged.set(label, Math.round(share));
  return merged;
}

function describeShares(shares: CpuShares): string {
  return [...shares]
    .filter(([, share]) => share > 0)
    .map(([label, share]) => `${label} ${share}%`)
    .join(', ');
}
