import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hexCodeFromCell } from '../libs/addressing/src/index.js';
import { latLngToCell } from 'h3-js';
import { ADMIN_KEY, eventually } from './support/boot.js';
import { keepCopyJob, needlesFor, placeCustomer, placedCoordinates, PLACES, scanBytes, scanEventStore, scanReadStore, scanTree, undocumented, type Hit } from './support/erasure-scan.js';

/**
 * Issue 47, "erasure is total, and provable", on the embedded adapters: the
 * real `npm start` process (logs at info, captured) is given everything that
 * can place one customer — consent with a proof reference, a zone, pings, a
 * drift, a loan zone, a KYC verification with positions, a proximity check's
 * device fix, a proof of delivery, webhooks that fail until after the
 * erasure — then the consent is revoked and the data erased. Every byte the
 * service wrote (DATA_DIR: event store, read store, queue, rate limits, data
 * keys, outbox, reference data; its logs; what it sent to webhook receivers
 * after the erasure; the customer's own copy) is searched for the customer's
 * id, coordinates (text, float64, float32) and hex codes, and the proof
 * reference. A hit that test/support/erasure-scan.ts does not document fails.
 */
const root = path.resolve(import.meta.dirname, '..');
const run = randomBytes(3).toString('hex');
const customer = `cust-scan-${run}`;
const proofReference = `otp-proof-${run}-zq81`;
const home = hexCodeFromCell(latLngToCell(5.6037, -0.187, 13));
const hexCodes = Object.values(PLACES).map(({ lat, lng }) => hexCodeFromCell(latLngToCell(lat, lng, 13)));

interface Delivery {
  event: string;
  body: string;
  at: number;
}

function startReceiver(failUntil: () => boolean) {
  const deliveries: Delivery[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const event = String(request.headers['x-webhook-event']);
      deliveries.push({ event, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      // Drift is taken at once (its hex codes become needles); the rest fails until the erasure is over, so it is retried after it.
      response.writeHead(event === 'drift' || !failUntil() ? 200 : 503).end();
    });
  });
  return new Promise<{ deliveries: Delivery[]; url: string; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        deliveries,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        close: async () => {
          server.closeAllConnections();
          await new Promise((done) => server.close(done));
        },
      }),
    ),
  );
}

describe('erasure leaves nothing that places the customer, on the embedded adapters', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-erasure-scan-'));
  const port = 19000 + Math.floor(Math.random() * 1000);
  const logs: Buffer[] = [];
  let child: ChildProcess;
  let erased = false;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const call = async (method: string, url: string, init: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`http://127.0.0.1:${port}${url}`, {
      method,
      headers: { ...init.headers, ...(init.key ? { 'x-api-key': init.key } : {}), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const data = async <T>(response: Response): Promise<T> => {
    const body = (await response.json()) as { data: T; error?: unknown };
    if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body.error)}`);
    return body.data;
  };

  beforeAll(async () => {
    receiver = await startReceiver(() => !erased);
    child = spawn(process.execPath, ['dist/apps/all-in-one/src/main.js'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_API_KEY: ADMIN_KEY,
        LOG_LEVEL: 'info',
        STARTER_DATA: 'false',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_RETRY_DELAYS_MS: '200,400,800,1600,3200,6400',
        SIGNUP_LIMIT_PER_IP_PER_HOUR: '100000',
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => logs.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => logs.push(chunk));
    await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`the service exited ${child.exitCode}: ${Buffer.concat(logs).toString('utf8').slice(-2000)}`);
      try {
        return (await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200 ? true : undefined;
      } catch {
        return undefined;
      }
    }, 120_000);
  }, 150_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await receiver?.close();
  });

  it('scans every store after revoke and delete-data and finds only what the guide says survives', async () => {
    const { key } = await data<{ key: string }>(await call('POST', '/v2/self/signup', { body: { name: 'Scan Lender', email: `scan-${run}@example.com` } }));
    const { account_id: accountId } = await data<{ account_id: string }>(await call('GET', '/v2/me', { key }));
    expect((await call('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
    expect((await call('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'enterprise' } })).status).toBe(200);
    await data(await call('POST', '/v2/webhooks/configure', { key, body: { url: receiver.url, secret: 'scan-webhook-secret', event_types: ['drift', 'consent_revoked', 'delivery.confirmed', 'geofence_breach'] } }));

    await placeCustomer(call, { key, customerId: customer, loanId: `loan-${run}`, proofReference, home, run });
    const drift = await eventually(async () => receiver.deliveries.find((delivery) => delivery.event === 'drift' && delivery.body.includes(customer)), 60_000);
    const driftBody = JSON.parse(drift.body) as { home_hex: string; current_hex: string };
    await data(await call('GET', `/v2/collections/locate?loan_id=loan-${run}`, { key }));
    const before = await data<Record<string, unknown>>(await call('POST', '/v2/consent/access-request', { key, body: { customer_id: customer } }));
    expect(JSON.stringify(before)).toContain(String(PLACES.ping.lat));
    // The same copy kept as a job (docs/adr/0068): its stored form is scanned with the rest, and it answers 410 once erased.
    const copyJob = await keepCopyJob(call, key, customer);

    expect((await call('POST', '/v2/consent/revoke', { key, body: { customer_id: customer } })).status).toBe(200);
    expect((await call('POST', '/v2/consent/delete-data', { key, body: { customer_id: customer } })).status).toBe(200);
    const erasedAt = Date.now();
    erased = true;

    // What the API still answers about the customer: the erasure, never a position or the proof.
    const needles = needlesFor({ customerId: customer, coordinates: placedCoordinates(), hexCodes: [...hexCodes, driftBody.current_hex, driftBody.home_hex], proofReference });
    const located = needles.filter((needle) => needle.kind !== 'customer');
    const copy = await data<Record<string, unknown>>(await call('POST', '/v2/consent/access-request', { key, body: { customer_id: customer } }));
    const status = await data<Record<string, unknown>>(await call('GET', `/v2/consent/status?customer_id=${customer}`, { key }));
    expect((await call('GET', `${copyJob}/result`, { key })).status).toBe(410);
    const answers: Hit[] = [
      ...scanBytes('answer access-request', Buffer.from(JSON.stringify(copy)), located),
      ...scanBytes('answer consent status', Buffer.from(JSON.stringify(status)), located),
    ];
    expect(answers.map((hit) => `${hit.where}: ${hit.needle.label}`)).toEqual([]);

    // Webhooks refused before the erasure (consent_revoked, delivery.confirmed) are due again after it: whatever is
    // delivered from here on must not name the customer.
    expect(receiver.deliveries.filter((delivery) => delivery.event !== 'drift' && delivery.at < erasedAt).length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const afterwards = receiver.deliveries.filter((delivery) => delivery.at >= erasedAt);
    const sent = afterwards.flatMap((delivery) => scanBytes(`webhook ${delivery.event} sent after the erasure`, Buffer.from(delivery.body), needles));

    // Stop the process (SIGTERM: it drains and closes its stores), then read every byte it wrote.
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const hits = [
      ...sent,
      ...(await scanEventStore(path.join(dataDir, 'events'), needles)),
      ...(await scanReadStore(path.join(dataDir, 'read-models'), needles)),
      ...scanTree(dataDir, needles),
      ...scanBytes('log', Buffer.concat(logs), needles),
    ];
    expect(undocumented(hits)).toEqual([]);
    // The scan reads what it should: the customer id is found where the guide says it stays (the consent history).
    expect(hits.map((hit) => `${hit.where}: ${hit.needle.kind}`)).toContain('event consent/CustomerDataErased: customer');
  }, 240_000);
});
