#!/usr/bin/env node
// Peak load A/B (issue 48): the audited GET /v2/reverse and POST /v2/route at 200 connections over
// 8 enterprise keys, against two built checkouts on the same machine, interleaved (A, B, A, B…).
//
//   node tools/peak-ab.mjs BASELINE_CHECKOUT CANDIDATE_CHECKOUT [seconds=10] [rounds=2]
//
// Each checkout must have node_modules and dist/ (`npm ci && node scripts/start.mjs build`); e.g. the
// baseline of issue 48: `git worktree add /tmp/base c1ea39e && (cd /tmp/base && npm ci && node scripts/start.mjs build)`.
// Each round starts each checkout's all-in-one process as its `npm start` does (its package.json's node flags),
// on embedded adapters in a fresh data folder with the starter pack, with the routing and public throttles
// raised so the request path is measured rather than the refusals, signs up 8 accounts, raises them to
// enterprise, and loads each route for `seconds` with autocannon (25 connections per key). Prints one line
// per run and the ratios candidate ÷ baseline of the medians last. A run with any non-2xx answer is marked.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const [baselineDir, candidateDir, secondsArg, roundsArg] = process.argv.slice(2);
if (!baselineDir || !candidateDir) {
  process.stderr.write('usage: node tools/peak-ab.mjs BASELINE_CHECKOUT CANDIDATE_CHECKOUT [seconds=10] [rounds=2]\n');
  process.exit(64);
}
const seconds = Number(secondsArg ?? 10);
const rounds = Number(roundsArg ?? 2);
const autocannon = createRequire(path.join(path.resolve(candidateDir), 'package.json'))('autocannon');
const ADMIN = `peak-admin-${Date.now()}-0123456789abcdef`;
const KEYS = 8;
const ROUTES = [
  { name: 'reverse', method: 'GET', path: '/v2/reverse?lat=5.6037&lng=-0.187' },
  { name: 'route', method: 'POST', path: '/v2/route', body: JSON.stringify({ from: { lat: 5.556, lng: -0.233 }, to: { lat: 5.57, lng: -0.18 } }) },
];

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The node flags the checkout's `npm start` passes (e.g. --max-semi-space-size), so each runs as it ships. */
function startFlags(dir) {
  const script = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).scripts?.start ?? '';
  return script.split(/\s+/).filter((word) => word.startsWith('--'));
}

async function measure(dir) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'peak-ab-'));
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_API_KEY: ADMIN,
    LOG_LEVEL: 'warn',
    STARTER_DATA: 'true',
    SIGNUP_LIMIT_PER_IP_PER_HOUR: '100000',
    THROTTLE_ROUTING_PER_MINUTE: '100000',
    THROTTLE_PUBLIC_PER_MINUTE: '100000',
    THROTTLE_BURST_SECONDS: '60',
    REDIS_URL: '',
    KAFKA_BROKERS: '',
    MONGODB_URL: '',
    EVENTSTORE_URL: '',
  };
  const child = spawn(process.execPath, [...startFlags(dir), 'dist/apps/all-in-one/src/main.js'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        if ((await fetch(`${base}/health/ready`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (attempt > 1200) throw new Error(`${dir}: not ready after 5 minutes`);
      await sleep(250);
    }
    const keys = [];
    for (let index = 0; index < KEYS; index++) {
      const signup = await (await fetch(`${base}/v2/self/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `Peak ${index}`, email: `peak${index}-${Date.now()}@example.com` }) })).json();
      const key = signup.data.key;
      const me = await (await fetch(`${base}/v2/me`, { headers: { 'x-api-key': key } })).json();
      const tier = await fetch(`${base}/v2/admin/accounts/${me.data.account_id}/tier`, { method: 'PUT', headers: { 'x-api-key': ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ tier: 'enterprise' }) });
      if (tier.status >= 300) throw new Error(`${dir}: tier change answered ${tier.status}`);
      keys.push(key);
    }
    await sleep(1000);
    const figures = {};
    for (const route of ROUTES) {
      const results = await Promise.all(
        keys.map((key) =>
          autocannon({ url: `${base}${route.path}`, method: route.method, connections: 200 / KEYS, duration: seconds, headers: { 'x-api-key': key, ...(route.body ? { 'content-type': 'application/json' } : {}) }, body: route.body }),
        ),
      );
      figures[route.name] = {
        rps: results.reduce((sum, result) => sum + result.requests.average, 0),
        non2xx: results.reduce((sum, result) => sum + result.non2xx + result.errors, 0),
        p99: Math.max(...results.map((result) => result.latency.p99)),
      };
    }
    return figures;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const runs = { baseline: [], candidate: [] };
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ['baseline', 'candidate'] : ['candidate', 'baseline'];
  for (const which of order) {
    const figures = await measure(which === 'baseline' ? baselineDir : candidateDir);
    runs[which].push(figures);
    const text = ROUTES.map(({ name }) => `${name} ${figures[name].rps.toFixed(0)} req/s, p99 ${figures[name].p99} ms${figures[name].non2xx ? ` (!! ${figures[name].non2xx} non-2xx)` : ''}`).join('; ');
    console.log(`round ${round + 1}, ${which}: ${text}`);
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const { name } of ROUTES) {
  const baseline = median(runs.baseline.map((figures) => figures[name].rps));
  const candidate = median(runs.candidate.map((figures) => figures[name].rps));
  const byRound = runs.candidate.map((figures, index) => (figures[name].rps / runs.baseline[index][name].rps).toFixed(2)).join(', ');
  console.log(`${name}: candidate ÷ baseline ${(candidate / baseline).toFixed(2)}× req/s (by round ${byRound}); p99 ${runs.baseline.map((f) => f[name].p99).join(', ')} → ${runs.candidate.map((f) => f[name].p99).join(', ')} ms`);
}
