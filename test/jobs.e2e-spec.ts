import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { describeWith } from '../libs/platform/src/testing/server-suites.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { accountOf, data, signUp } from './support/http.js';

/** Issue 48, item 2: work that outlives a request as a job resource (202, Location, GET /v2/jobs/{id}, its result, job.completed). */
const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

interface Delivery {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

async function startReceiver() {
  const deliveries: Delivery[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({ headers: request.headers, raw: Buffer.concat(chunks) });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    deliveries,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/jobs`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const hmac = (secret: string, bytes: Buffer | string) => createHmac('sha256', secret).update(bytes).digest('hex');
const sameHex = (a: unknown, b: string) => typeof a === 'string' && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

interface JobView {
  id: string;
  kind: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  progress: { done: number; total: number | null };
  result: { href: string; bytes: number; expires_at: string } | null;
  error: { code: string; message: string } | null;
}

/** Polls GET /v2/jobs/{id} until the job finished. */
async function finished(service: Service, key: string, location: string): Promise<JobView> {
  return eventually(async () => {
    const response = await service.request('GET', location, { key });
    expect(response.status).toBe(200);
    const job = await data<JobView>(response);
    return job.status === 'succeeded' || job.status === 'failed' ? job : undefined;
  }, 60_000);
}

describe('jobs over HTTP', () => {
  let service: Service;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let key: string;
  let accountId: string;
  let otherKey: string;
  const secret = 'jobs-webhook-secret-0123456789';

  beforeAll(async () => {
    receiver = await startReceiver();
    service = await bootService({ env: { WEBHOOK_RETRY_DELAYS_MS: '0,300,600', WEBHOOK_TIMEOUT_MS: '2000' } });
    key = await signUp(service, 'JobsLender');
    accountId = await accountOf(service, key);
    otherKey = await signUp(service, 'OtherLender');
    expect((await service.request('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
    const configured = await service.request('POST', '/v2/webhooks/configure', { key, body: { url: receiver.url, secret, event_types: ['job.completed'] } });
    expect(configured.status).toBe(200);
    for (let index = 0; index < 3; index++) expect((await service.request('GET', '/v2/banking/audit-log', { key })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await service?.close().catch(() => undefined);
    await receiver?.close();
  });

  it('answers the audit export with Prefer: respond-async as a job whose result the offline verifier accepts, as it does the synchronous bundle', async () => {
    const accepted = await service.request('GET', '/v2/banking/audit-log/export', { key, headers: { prefer: 'respond-async' } });
    expect(accepted.status).toBe(202);
    const job = await data<JobView>(accepted);
    expect(job).toMatchObject({ kind: 'audit.export', status: 'queued', result: null, error: null });
    expect(accepted.headers.get('location')).toBe(`/v2/jobs/${job.id}`);

    const done = await finished(service, key, accepted.headers.get('location')!);
    expect(done.status).toBe('succeeded');
    expect(done.result?.href).toBe(`/v2/jobs/${job.id}/result`);
    const result = await service.request('GET', done.result!.href, { key });
    expect(result.status).toBe(200);
    const bundle = (await result.json()) as { success: boolean; data: { stream: string; entries: Array<{ account_id: string }> } };
    expect(bundle.success).toBe(true);
    expect(bundle.data.stream).toBe(`access_log-${accountId}`);
    expect(bundle.data.entries.length).toBeGreaterThan(0);

    const jwks = await (await service.request('GET', '/v2/.well-known/jwks.json')).json();
    writeFileSync(path.join(service.dataDir, 'job-bundle.json'), JSON.stringify(bundle));
    writeFileSync(path.join(service.dataDir, 'jwks.json'), JSON.stringify(jwks));
    const { stdout } = await run(process.execPath, [path.join(root, 'tools/verify-audit-bundle.mjs'), path.join(service.dataDir, 'job-bundle.json'), path.join(service.dataDir, 'jwks.json')]);
    expect(stdout).toMatch(/^OK access_log-acct_\w+: \d+ entries verified/);

    // Without the preference the answer is the synchronous bundle, as before.
    const synchronous = await service.request('GET', '/v2/banking/audit-log/export', { key });
    expect(synchronous.status).toBe(200);
    expect((await data<{ stream: string }>(synchronous)).stream).toBe(`access_log-${accountId}`);

    // Another account sees neither the job nor its result; a malformed id is 400.
    for (const url of [`/v2/jobs/${job.id}`, `/v2/jobs/${job.id}/result`]) {
      const other = await service.request('GET', url, { key: otherKey });
      expect(other.status).toBe(404);
      expect(((await other.json()) as { error: { code: string } }).error.code).toBe('JOB_NOT_FOUND');
    }
    expect((await service.request('GET', '/v2/jobs/not-a-job', { key })).status).toBe(400);

    // job.completed reaches the subscribed account's receiver, signed over the raw body.
    const delivery = await eventually(async () => receiver.deliveries.find((item) => JSON.parse(item.raw.toString('utf8')).job_id === job.id), 30_000);
    expect(delivery.headers['x-webhook-event']).toBe('job.completed');
    expect(sameHex(delivery.headers['x-webhook-signature'], hmac(secret, delivery.raw))).toBe(true);
    const timestamp = String(delivery.headers['x-webhook-timestamp']);
    expect(sameHex(delivery.headers['x-webhook-signature-v2'], hmac(secret, Buffer.concat([Buffer.from(`${timestamp}.`), delivery.raw])))).toBe(true);
    expect(JSON.parse(delivery.raw.toString('utf8'))).toEqual({
      event: 'job.completed',
      job_id: job.id,
      kind: 'audit.export',
      status: 'succeeded',
      href: `/v2/jobs/${job.id}`,
      result_href: `/v2/jobs/${job.id}/result`,
      error: null,
      timestamp: expect.any(String),
    });
  }, 120_000);

  it('answers a bulk above the synchronous limit with 202 and a job whose result codes the same items the synchronous calls do, counted against the quota', async () => {
    expect((await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'enterprise' } })).status).toBe(200);
    const limit = 10_000;
    const items: unknown[] = Array.from({ length: limit + 50 }, (_, index) => ({ id: `p${index}`, lat: 5.5 + (index % 100) * 0.001, lng: -0.2 - Math.floor(index / 100) * 0.001 }));
    items[3] = '6Q3-HQK-Q4ZA';
    items[limit + 7] = { lat: 95, lng: 0, id: 'off-the-globe' };
    items[limit + 9] = { code: '0QP-PAN-VTWH', id: 'decoded' };

    const me = await service.request('GET', '/v2/me', { key });
    const before = Number(me.headers.get('x-ratelimit-remaining'));
    const accepted = await service.request('POST', '/v2/hexcode/bulk', { key, body: { resolution: 11, items } });
    expect(accepted.status).toBe(202);
    expect(Number(accepted.headers.get('x-ratelimit-remaining'))).toBe(before - items.length);
    const job = await data<JobView>(accepted);
    expect(job).toMatchObject({ kind: 'hexcode.bulk', status: 'queued', progress: { done: 0, total: items.length } });
    expect(accepted.headers.get('location')).toBe(`/v2/jobs/${job.id}`);

    const done = await finished(service, key, `/v2/jobs/${job.id}`);
    expect(done).toMatchObject({ status: 'succeeded', progress: { done: items.length, total: items.length }, error: null });
    const result = await service.request('GET', done.result!.href, { key });
    expect(result.status).toBe(200);
    const answer = await data<{ items: Array<{ index: number }>; count: number; failed: number }>(result);

    // The same items, coded by the synchronous endpoint in two calls within its limit.
    const first = await data<{ items: Array<{ index: number }>; count: number; failed: number }>(await service.request('POST', '/v2/hexcode/bulk', { key, body: { resolution: 11, items: items.slice(0, limit) } }));
    const rest = await data<{ items: Array<{ index: number }>; count: number; failed: number }>(await service.request('POST', '/v2/hexcode/bulk', { key, body: { resolution: 11, items: items.slice(limit) } }));
    expect(answer.count).toBe(items.length);
    expect(answer.failed).toBe(first.failed + rest.failed);
    expect(answer.failed).toBe(1);
    // An item of the second call has its index, and the field an error names, in the whole batch.
    const shifted = (item: { index: number; error?: { field: string } }) => ({
      ...item,
      index: item.index + limit,
      ...(item.error ? { error: { ...item.error, field: item.error.field.replace(/^items\[(\d+)\]/, (_, index: string) => `items[${Number(index) + limit}]`) } } : {}),
    });
    expect(answer.items).toEqual([...first.items, ...rest.items.map(shifted)]);

    // Another account's key finds nothing.
    expect((await service.request('GET', `/v2/jobs/${job.id}/result`, { key: otherKey })).status).toBe(404);
  }, 180_000);
});

/** Resolves with the exit code, also for a child that has already exited. */
function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

// The production split: the api accepts, a separate worker process runs the job off BullMQ, the api serves the result from the shared DATA_DIR.
describeWith('REDIS_URL', 'jobs across an api and a worker process (test/jobs.e2e-spec)')('jobs across an api and a worker process (dist entry points, BullMQ)', () => {
  it('runs an export and a bulk accepted by the api in the worker, and the api serves their results', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-jobs-split-'));
    const port = 21000 + Math.floor(Math.random() * 1000);
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', STARTER_DATA: 'false' };
    delete env.KAFKA_BROKERS;
    const api = spawn(process.execPath, ['scripts/start.mjs', 'api'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const worker = spawn(process.execPath, ['scripts/start.mjs', 'worker'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const errors: string[] = [];
    api.stderr?.on('data', (chunk) => errors.push(`api: ${chunk}`));
    worker.stderr?.on('data', (chunk) => errors.push(`worker: ${chunk}`));
    const call = async (method: string, url: string, init: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
      const headers: Record<string, string> = { ...init.headers, ...(init.key ? { 'x-api-key': init.key } : {}), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) };
      return fetch(`http://127.0.0.1:${port}${url}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    };
    const service = { request: call } as unknown as Service;
    const codes: Array<number | null> = [];
    try {
      await eventually(async () => {
        expect(errors).toEqual([]);
        try {
          return (await fetch(`http://127.0.0.1:${port}/health`)).status === 200 ? true : undefined;
        } catch {
          return undefined;
        }
      }, 120_000);
      const key = await signUp(service, 'SplitLender');
      const accountId = await accountOf(service, key);
      expect((await call('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
      expect((await call('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'enterprise' } })).status).toBe(200);
      expect((await call('GET', '/v2/banking/audit-log', { key })).status).toBe(200);

      const exported = await call('GET', '/v2/banking/audit-log/export', { key, headers: { prefer: 'respond-async' } });
      expect(exported.status).toBe(202);
      const exportJob = await finished(service, key, exported.headers.get('location')!);
      expect(exportJob).toMatchObject({ kind: 'audit.export', status: 'succeeded' });
      const bundle = await (await call('GET', exportJob.result!.href, { key })).json();
      writeFileSync(path.join(dataDir, 'split-bundle.json'), JSON.stringify(bundle));
      writeFileSync(path.join(dataDir, 'split-jwks.json'), JSON.stringify(await (await call('GET', '/v2/.well-known/jwks.json')).json()));
      const { stdout } = await run(process.execPath, [path.join(root, 'tools/verify-audit-bundle.mjs'), path.join(dataDir, 'split-bundle.json'), path.join(dataDir, 'split-jwks.json')]);
      expect(stdout).toMatch(/^OK access_log-acct_\w+: \d+ entries verified/);

      const items = Array.from({ length: 10_001 }, (_, index) => ({ id: index, lat: 5.6 + (index % 50) * 0.002, lng: -0.19 }));
      const accepted = await call('POST', '/v2/hexcode/bulk', { key, body: { items } });
      expect(accepted.status).toBe(202);
      const bulkJob = await finished(service, key, accepted.headers.get('location')!);
      expect(bulkJob).toMatchObject({ kind: 'hexcode.bulk', status: 'succeeded', progress: { done: 10_001, total: 10_001 } });
      const answer = await data<{ items: unknown[]; count: number; failed: number }>(await call('GET', bulkJob.result!.href, { key }));
      const first = await data<{ items: unknown[] }>(await call('POST', '/v2/hexcode/bulk', { key, body: { items: items.slice(0, 10_000) } }));
      expect(answer).toMatchObject({ count: 10_001, failed: 0 });
      expect(answer.items.slice(0, 10_000)).toEqual(first.items);
    } finally {
      api.kill('SIGTERM');
      worker.kill('SIGTERM');
      codes.push(await exited(api), await exited(worker));
    }
    // After the test's own failure, if any (a failed expectation above is reported, not the exit codes it caused).
    expect(codes).toEqual([0, 0]);
  }, 300_000);
});
