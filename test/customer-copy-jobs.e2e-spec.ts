import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { bootService, eventually, type Service } from './support/boot.js';
import { needlesFor, scanTree } from './support/erasure-scan.js';
import { accountOf, data, signUp } from './support/http.js';

/**
 * The customer's copy as a job (issue 48, item 2; docs/adr/0068): with
 * `Prefer: respond-async` POST /v2/consent/access-request answers 202 and a
 * worker makes the same signed copy, kept sealed under the customer's data
 * key. Erasing the customer makes the kept copy unreadable: GET /v2/jobs/{id}
 * and its result answer 410 JOB_RESULT_ERASED, a job accepted before the
 * erasure never yields a readable copy, and the bytes the jobs and the queue
 * keep under DATA_DIR never held the customer's id or positions in the clear.
 */

interface JobView {
  id: string;
  kind: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  result: { href: string; bytes: number } | null;
  error: { code: string; message: string } | null;
}

interface Copy {
  document: { customer_id: string; erasure: unknown; location_history: { items: Array<{ type: string; lat?: number }>; unreadable: number } };
  kid: string;
  jws: string;
}

const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

describe("the customer's copy as a job", () => {
  let service: Service;
  let key: string;
  let accountId: string;
  let otherKey: string;
  const run = Math.random().toString(36).slice(2, 8);
  const customer = `cust-copyjob-${run}`;
  // Distinctive coordinates (seven decimals), sent once: the needles of the byte scans.
  const ping = { lat: 5.6141239, lng: -0.1627413 };

  beforeAll(async () => {
    service = await bootService();
    key = await signUp(service, 'CopyJobLender');
    accountId = await accountOf(service, key);
    otherKey = await signUp(service, 'OtherCopyLender');
    expect((await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: customer, purpose: 'loan_collections', channel: 'app', proof: { kind: 'otp', reference: `otp-${run}` } } })).status).toBe(200);
    const pinged = await service.request('POST', '/v2/monitoring/pings', { key, body: { pings: [{ customer_id: customer, ...ping, accuracy_m: 10, recorded_at: new Date(Date.now() - 60_000).toISOString() }] } });
    expect(pinged.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  const ask = (customerId: string, headers: Record<string, string> = { prefer: 'respond-async' }) => service.request('POST', '/v2/consent/access-request', { key, body: { customer_id: customerId }, headers });

  /** Polls GET /v2/jobs/{id} until it stops answering a job still waiting or running; answers the last response. */
  const settled = (location: string) =>
    eventually(async () => {
      const response = await service.request('GET', location, { key });
      if (response.status !== 200) return response;
      const job = await data<JobView>(response.clone());
      return job.status === 'succeeded' || job.status === 'failed' ? response : undefined;
    }, 60_000);

  /** The needles of this customer (id, the ping's coordinates as text, float64 and float32) in what DATA_DIR keeps for jobs and the queue. */
  const scanJobsAndQueue = () => {
    const needles = needlesFor({ customerId: customer, coordinates: [ping.lat, ping.lng] });
    return ['jobs', 'queue'].flatMap((folder) => (existsSync(path.join(service.dataDir, folder)) ? scanTree(path.join(service.dataDir, folder), needles, folder) : [])).map((hit) => `${hit.where}: ${hit.needle.label}`);
  };

  it('answers the same signed copy as a job, kept sealed; after the erasure the job and its result answer 410 and nothing readable is left', async () => {
    const accepted = await ask(customer);
    expect(accepted.status).toBe(202);
    const job = await data<JobView>(accepted);
    expect(job).toMatchObject({ kind: 'customer.copy', status: 'queued', result: null, error: null });
    expect(accepted.headers.get('location')).toBe(`/v2/jobs/${job.id}`);

    const done = await data<JobView>(await settled(`/v2/jobs/${job.id}`));
    expect(done).toMatchObject({ status: 'succeeded', error: null });
    const result = await service.request('GET', done.result!.href, { key });
    expect(result.status).toBe(200);
    const copy = await data<Copy>(result);
    expect(copy.document.customer_id).toBe(customer);
    expect(copy.document.erasure).toBeNull();
    expect(copy.document.location_history.items.filter((item) => item.type === 'PingRecorded').map((item) => item.lat)).toEqual([ping.lat]);
    // The copy verifies with the JWKS alone, as the synchronous one does.
    const jwks = createLocalJWKSet((await (await service.request('GET', '/v2/.well-known/jwks.json')).json()) as JSONWebKeySet);
    const { payload, protectedHeader } = await compactVerify(copy.jws, jwks);
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'customer-copy' });
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual(copy.document);

    // Without the preference the answer is the synchronous copy, as before.
    const synchronous = await ask(customer, {});
    expect(synchronous.status).toBe(200);
    expect((await data<Copy>(synchronous)).document.location_history.items.map((item) => item.lat)).toContain(ping.lat);

    // The kept copy is sealed: its file and the queued job hold neither the customer's id nor the position.
    expect(readdirSync(path.join(service.dataDir, 'jobs', accountId))).toContain(`${job.id}.sealed`);
    expect(scanJobsAndQueue()).toEqual([]);

    // Another account sees nothing.
    expect((await service.request('GET', `/v2/jobs/${job.id}/result`, { key: otherKey })).status).toBe(404);

    // A second copy asked for just before the erasure: wherever the erasure finds it (waiting, running, done), it never answers a copy.
    const pending = await ask(customer);
    expect(pending.status).toBe(202);
    const pendingId = (await data<JobView>(pending)).id;

    expect((await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: customer } })).status).toBe(200);
    expect((await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: customer } })).status).toBe(200);

    for (const url of [`/v2/jobs/${job.id}`, `/v2/jobs/${job.id}/result`]) {
      const gone = await service.request('GET', url, { key });
      expect(gone.status).toBe(410);
      expect(await errorCode(gone)).toBe('JOB_RESULT_ERASED');
    }
    const ended = await settled(`/v2/jobs/${pendingId}`);
    expect(ended.status).toBe(410);
    expect(await errorCode(ended)).toBe('JOB_RESULT_ERASED');
    const pendingResult = await service.request('GET', `/v2/jobs/${pendingId}/result`, { key });
    expect(pendingResult.status).toBe(410);
    // Another account still finds no such job.
    expect((await service.request('GET', `/v2/jobs/${job.id}`, { key: otherKey })).status).toBe(404);

    // A copy asked for after the erasure is the erased customer's copy (what the law keeps, no position), readable.
    const later = await ask(customer);
    expect(later.status).toBe(202);
    const laterJob = await data<JobView>(await settled(later.headers.get('location')!));
    expect(laterJob.status).toBe('succeeded');
    const laterCopy = await data<Copy>(await service.request('GET', laterJob.result!.href, { key }));
    expect(laterCopy.document.erasure).toMatchObject({ erased_at: expect.any(String) });
    expect(laterCopy.document.location_history.items).toEqual([]);
    expect(JSON.stringify(laterCopy)).not.toContain(String(ping.lat));

    expect(scanJobsAndQueue()).toEqual([]);
  }, 180_000);

  it('counts a copy asked for as a job against the per-account limit, as the synchronous one', async () => {
    const limited = await bootService({ env: { ACCESS_REQUESTS_PER_ACCOUNT_PER_HOUR: '1' } });
    try {
      const lender = await signUp(limited, 'LimitedCopyLender');
      const first = await limited.request('POST', '/v2/consent/access-request', { key: lender, body: { customer_id: 'cust-limit-1' }, headers: { prefer: 'respond-async' } });
      expect(first.status).toBe(202);
      for (const headers of [{ prefer: 'respond-async' }, {}] as Array<Record<string, string>>) {
        const refused = await limited.request('POST', '/v2/consent/access-request', { key: lender, body: { customer_id: 'cust-limit-1' }, headers });
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    } finally {
      await limited.close();
    }
  }, 60_000);
});
