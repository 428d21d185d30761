import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { COLLECTION_LOAN_INDEXES, COLLECTION_LOANS_READ_MODEL, type CollectionLoanDoc } from '../libs/banking/src/index.js';
import { importOsm } from '../libs/places/src/index.js';
import { collectionName, FileDatasetStore, systemClock, toMessage } from '../libs/platform/src/index.js';
import { weatherImportCli } from '../libs/weather/src/index.js';
import { hexCodeForPoint } from '../libs/addressing/src/index.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { needlesFor, scanEventStore, scanReadStore, scanTree } from './support/erasure-scan.js';
import { accountOf, data, json, signUp } from './support/http.js';
import { capAlert, capExpiresIn } from './support/cap-alert.js';

type ErrorAnswer = { error: { code: string; field?: string; details?: Record<string, unknown> } };

/** Issue 13: banking features for lenders, end to end over HTTP. */
describe('banking features', () => {
  let service: Service;
  let lender: { key: string; accountId: string };
  let other: { key: string; accountId: string };
  const home = { lat: 5.5497, lng: -0.2107 };

  const provisioned = async (name: string) => {
    const key = await signUp(service, name);
    const accountId = await accountOf(service, key);
    expect((await service.request('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
    // Bulk registrations count their loans against the quota (issue 31): more than a free key's 100 a day.
    expect((await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'pro' } })).status).toBe(200);
    return { key, accountId };
  };

  beforeAll(async () => {
    service = await bootService();
    lender = await provisioned('Lender');
    other = await provisioned('OtherLender');
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  it('refuses every banking endpoint to an account without banking access, and outside its IP allowlist', async () => {
    const plain = await signUp(service, 'Plain');
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/v2/collections/register', {}],
      ['POST', '/v2/collections/bulk-register', { loans: [] }],
      ['GET', '/v2/collections/locate?loan_id=x'],
      ['POST', '/v2/collections/locate', { loan_id: 'x' }],
      ['POST', '/v2/analytics/portfolio-risk', {}],
      ['POST', '/v2/verify/schedule', {}],
      ['GET', '/v2/verify/schedules'],
      ['GET', '/v2/verify/schedule/rvs_0123456789abcdef0123456789abcdef'],
      ['DELETE', '/v2/verify/schedule/rvs_0123456789abcdef0123456789abcdef'],
    ];
    for (const [method, path, body] of calls) {
      const response = await service.request(method, path, { key: plain, ...(body === undefined ? {} : { body }) });
      expect([method, path, response.status, (await json<ErrorAnswer>(response)).error.code]).toEqual([method, path, 403, 'BANKING_ACCESS_REQUIRED']);
    }
    const fenced = await provisioned('Fenced');
    await service.request('PUT', `/v2/admin/accounts/${fenced.accountId}/ip-allowlist`, { key: ADMIN_KEY, body: { entries: ['203.0.113.0/24'] } });
    const outside = await service.request('POST', '/v2/collections/register', { key: fenced.key, body: { loan_id: 'l', customer_id: 'c', zone: { type: 'point', ...home, radius_m: 300 } } });
    expect(outside.status).toBe(403);
    expect((await json<ErrorAnswer>(outside)).error.code).toBe('IP_NOT_ALLOWED');
  });

  it('registers loans with point, hex and polygon zones, idempotently, and names the bad field', async () => {
    const register = (body: unknown) => service.request('POST', '/v2/collections/register', { key: lender.key, body });
    const point = { loan_id: 'loan-point', customer_id: 'cust-1', zone: { type: 'point', ...home, radius_m: 300 }, expected_collection_days: 7 };
    const first = await register(point);
    expect(first.status).toBe(200);
    expect(await data(first)).toMatchObject({ loan_id: 'loan-point', customer_id: 'cust-1', outcome: 'created', expected_collection_days: 7, zone: { type: 'point', radius_m: 300 } });
    expect(await data(await register(point))).toMatchObject({ outcome: 'unchanged' });
    expect(await data(await register({ ...point, zone: { ...point.zone, radius_m: 500 } }))).toMatchObject({ outcome: 'updated', zone: { radius_m: 500 } });

    const hex = await register({ loan_id: 'loan-hex', customer_id: 'cust-2', zone: { type: 'hex', code: '6Q3-HQK-Q4ZA' } });
    expect(await data(hex)).toMatchObject({ outcome: 'created', zone: { type: 'hex', code: '6Q3-HQK-Q4ZA', h3_cell: expect.any(String) } });
    const ring = [[-0.22, 5.54], [-0.2, 5.54], [-0.2, 5.56], [-0.22, 5.56], [-0.22, 5.54]];
    expect((await data(await register({ loan_id: 'loan-poly', customer_id: 'cust-3', zone: { type: 'polygon', polygon: { type: 'Polygon', coordinates: [ring] } } }))) as { outcome: string }).toMatchObject({ outcome: 'created' });

    for (const [body, field] of [
      [{ ...point, zone: { ...point.zone, radius_m: 5 } }, 'zone.radius_m'],
      [{ ...point, zone: { type: 'circle' } }, 'zone.type'],
      [{ ...point, loan_id: 'bad id!' }, 'loan_id'],
      [{ ...point, zone: { type: 'hex', code: 'nope' } }, 'zone.code'],
    ] as const) {
      const refused = await register(body);
      expect(refused.status).toBe(400);
      expect((await json<ErrorAnswer>(refused)).error.field).toBe(field);
    }
  });

  it('bulk-registers with an outcome per loan, idempotent by loan_id', async () => {
    const loans = Array.from({ length: 50 }, (_, i) => ({ loan_id: `bulk-${i}`, customer_id: `bulk-cust-${i}`, zone: { type: 'point', lat: 5.6 + i * 0.001, lng: -0.19, radius_m: 200 } }));
    const bad = { loan_id: 'bulk-bad', customer_id: 'x', zone: { type: 'point', lat: 95, lng: 0, radius_m: 200 } };
    const first = await data<{ total: number; created: number; refused: number; items: Array<{ outcome: string; error?: { field?: string } }> }>(
      await service.request('POST', '/v2/collections/bulk-register', { key: lender.key, body: { loans: [...loans, bad, loans[0]] } }),
    );
    expect(first).toMatchObject({ total: 52, created: 50, refused: 2 });
    expect(first.items[50]).toMatchObject({ outcome: 'refused', error: { field: 'loans[50].zone.lat' } });
    expect(first.items[51]).toMatchObject({ outcome: 'refused', error: { code: 'DUPLICATE_LOAN_ID' } });
    const again = await data<{ unchanged: number; created: number }>(await service.request('POST', '/v2/collections/bulk-register', { key: lender.key, body: { loans } }));
    expect(again).toMatchObject({ unchanged: 50, created: 0 });
    const tooMany = await service.request('POST', '/v2/collections/bulk-register', { key: lender.key, body: { loans: Array.from({ length: 10_001 }, () => ({})) } });
    expect(tooMany.status).toBe(400);
  });

  it('locates a borrower only under a loan_collections consent, else names the missing consent', async () => {
    const customer = 'cust-locate';
    await service.request('POST', '/v2/collections/register', { key: lender.key, body: { loan_id: 'loan-locate', customer_id: customer, zone: { type: 'point', ...home, radius_m: 300 } } });
    const locate = () => service.request('GET', '/v2/collections/locate?loan_id=loan-locate', { key: lender.key });

    const none = await locate();
    expect(none.status).toBe(403);
    expect(await json<ErrorAnswer>(none)).toMatchObject({ error: { code: 'CONSENT_REQUIRED', details: { missing_consent: 'loan_collections', consent_status: 'none' } } });
    await service.request('POST', '/v2/consent/grant', { key: lender.key, body: { customer_id: customer, purpose: 'fleet_dispatch' } });
    expect(await json<ErrorAnswer>(await locate())).toMatchObject({ error: { code: 'CONSENT_REQUIRED', details: { consent_status: 'granted', consent_purpose: 'fleet_dispatch' } } });

    await service.request('POST', '/v2/consent/grant', { key: lender.key, body: { customer_id: customer, purpose: 'loan_collections' } });
    expect(await data(await locate())).toMatchObject({ located: false, position: null, inside_zone: null });
    const recordedAt = new Date(Date.now() - 60_000).toISOString();
    const ping = await service.request('POST', '/v2/monitoring/pings', { key: lender.key, body: { customer_id: customer, lat: 5.5755, lng: -0.2301, recorded_at: recordedAt } });
    expect(ping.status).toBe(200);
    const found = await eventually(async () => {
      const answer = await data<{ located: boolean }>(await locate());
      return answer.located ? answer : undefined;
    });
    expect(found).toMatchObject({ loan_id: 'loan-locate', customer_id: customer, inside_zone: false, fix_at: recordedAt, hex_code: expect.any(String), position: { lat: 5.5755, lng: -0.2301 } });
    expect((found as unknown as { distance_m: number }).distance_m).toBeGreaterThan(3000);
    expect((found as unknown as { fix_age_s: number }).fix_age_s).toBeGreaterThanOrEqual(59);
    // POST answers the same.
    expect(await data(await service.request('POST', '/v2/collections/locate', { key: lender.key, body: { loan_id: 'loan-locate' } }))).toMatchObject({ inside_zone: false, fix_at: recordedAt });

    // Another account's loan is not found; a revoke is honoured at once.
    expect((await json<ErrorAnswer>(await service.request('GET', '/v2/collections/locate?loan_id=loan-locate', { key: other.key }))).error.code).toBe('LOAN_NOT_FOUND');
    await service.request('POST', '/v2/consent/revoke', { key: lender.key, body: { customer_id: customer } });
    expect(await json<ErrorAnswer>(await locate())).toMatchObject({ error: { code: 'CONSENT_REQUIRED', details: { consent_status: 'revoked' } } });
  });

  it('keeps neither the borrower nor the zone in the clear in the collection_loans read model or the loan stream; an erasure leaves the loan unreadable (issue 47)', async () => {
    const customer = 'cust-zone-sealed-4711';
    const zone = { type: 'point', lat: 5.561234, lng: -0.207654, radius_m: 300 };
    const registered = await service.request('POST', '/v2/collections/register', { key: lender.key, body: { loan_id: 'loan-sealed', customer_id: customer, zone } });
    expect(registered.status).toBe(200);
    expect(await data(registered)).toMatchObject({ customer_id: customer, zone, outcome: 'created' });
    const { readStore, events } = service.runtime.backends;
    const loans = await readStore.collection<CollectionLoanDoc>(collectionName(COLLECTION_LOANS_READ_MODEL), COLLECTION_LOAN_INDEXES);
    const id = `${lender.accountId}:loan-sealed`;
    const clear = (value: unknown) => JSON.stringify(value).match(/cust-zone-sealed-4711|5\.561234|-0\.207654|radius_m/g) ?? [];
    // The register answer waited for the read model: the document is there, naming the borrower by pseudonym only, the zone sealed.
    const doc = await loans.get(id);
    expect(doc).toMatchObject({ loan_id: 'loan-sealed', pseudonym: expect.any(String), borrower_ref: expect.any(String), sealed: expect.any(String), erased_at: null });
    expect(clear(doc)).toEqual([]);
    const stored = await events.readStream(`collection_loan-${lender.accountId}:loan-sealed`);
    expect(stored.map((event) => Object.keys(event.data).includes('zone'))).toEqual([false]);
    expect(clear(stored.map((event) => event.data)).filter((hit) => hit !== customer)).toEqual([]);
    // Opened with the borrower's key where it is read: the book, the locate answer.
    await service.request('POST', '/v2/consent/grant', { key: lender.key, body: { customer_id: customer, purpose: 'loan_collections' } });
    const risk = await data<{ loans_assessed: number; loans: Array<{ customer_id: string }> }>(await service.request('POST', '/v2/analytics/portfolio-risk', { key: lender.key, body: { loan_ids: ['loan-sealed'] } }));
    expect(risk).toMatchObject({ loans_assessed: 1, loans: [{ customer_id: customer }] });
    expect(await data(await service.request('GET', '/v2/collections/locate?loan_id=loan-sealed', { key: lender.key }))).toMatchObject({ customer_id: customer, zone });

    expect((await service.request('POST', '/v2/consent/revoke', { key: lender.key, body: { customer_id: customer } })).status).toBe(200);
    expect((await service.request('POST', '/v2/consent/delete-data', { key: lender.key, body: { customer_id: customer } })).status).toBe(200);
    const erased = await eventually(async () => {
      const current = await loans.get(id);
      return current?.erased_at ? current : undefined;
    });
    expect(erased).toMatchObject({ loan_id: 'loan-sealed', borrower_ref: null, key_id: null, sealed: null, legacy_terms: null });
    const located = await service.request('GET', '/v2/collections/locate?loan_id=loan-sealed', { key: lender.key });
    expect(located.status).toBe(404);
    expect((await json<ErrorAnswer>(located)).error.code).toBe('LOAN_NOT_FOUND');
    expect(await data(await service.request('POST', '/v2/analytics/portfolio-risk', { key: lender.key, body: { loan_ids: ['loan-sealed'] } }))).toMatchObject({ loans_assessed: 0, not_found: ['loan-sealed'] });
    // The lender may register the loan again: new terms under a new key.
    expect(await data(await service.request('POST', '/v2/collections/register', { key: lender.key, body: { loan_id: 'loan-sealed', customer_id: customer, zone } }))).toMatchObject({ outcome: 'created' });
    // What the Kafka relay publishes from the erasure on (every event as stored, toMessage): no coordinate of the zone in the clear.
    const [erasure] = (await events.readStream(`consent-${lender.accountId}:${customer}`)).filter((event) => event.type === 'CustomerDataErased');
    const after = await events.readAll({ after: erasure.position - 1n });
    expect(after.map((event) => event.type)).toEqual(expect.arrayContaining(['CustomerDataErased', 'CollectionLoanRegistered']));
    expect(clear(after.map((event) => toMessage(event, 'location-api').value)).filter((hit) => hit !== customer)).toEqual([]);
  });

  it('assesses portfolio risk with a score per loan; the weather factor is reported unavailable', async () => {
    const customer = 'cust-risk';
    await service.request('POST', '/v2/collections/register', { key: other.key, body: { loan_id: 'risk-away', customer_id: customer, zone: { type: 'point', ...home, radius_m: 300 } } });
    await service.request('POST', '/v2/collections/register', { key: other.key, body: { loan_id: 'risk-unseen', customer_id: 'cust-unseen', zone: { type: 'point', ...home, radius_m: 300 } } });
    await service.request('POST', '/v2/consent/grant', { key: other.key, body: { customer_id: customer, purpose: 'loan_collections' } });
    await service.request('POST', '/v2/monitoring/pings', { key: other.key, body: { customer_id: customer, lat: 5.6037, lng: -0.187, recorded_at: new Date().toISOString() } });
    const risk = await eventually(async () => {
      const answer = await data<{ factors: { out_of_zone: { count: number } } }>(await service.request('POST', '/v2/analytics/portfolio-risk', { key: other.key, body: {} }));
      return answer.factors.out_of_zone.count === 1 ? answer : undefined;
    });
    expect(risk).toMatchObject({
      loans_assessed: 2,
      factors: {
        out_of_zone: { count: 1, share: 0.5, loan_ids: ['risk-away'] },
        not_seen: { count: 1, loan_ids: ['risk-unseen'] },
        no_consent: { count: 1, loan_ids: ['risk-unseen'] },
        weather_alert: { available: false },
      },
      concentration: { resolution: 7, top_hexes: [{ loans: 2 }] },
      not_found: [],
    });
    const loans = (risk as unknown as { loans: Array<{ loan_id: string; score: number; level: string }> }).loans;
    expect(loans.map((loan) => loan.loan_id).sort()).toEqual(['risk-away', 'risk-unseen']);
    expect(loans.find((loan) => loan.loan_id === 'risk-away')).toMatchObject({ score: 36, level: 'medium', out_of_zone: true });
    // Only the account's own loans: the lender's are unknown here.
    expect(await data(await service.request('POST', '/v2/analytics/portfolio-risk', { key: other.key, body: { loan_ids: ['loan-point', 'risk-away'] } }))).toMatchObject({ loans_assessed: 1, not_found: ['loan-point'] });
    expect((await service.request('POST', '/v2/analytics/portfolio-risk', { key: other.key, body: { not_seen_days: 0 } })).status).toBe(400);
  });

  // Issue 31, item 5: {"loan_ids": null} was a 500, and a null body was taken as {}.
  it('refuses null for a field and a body that is not an object with 400 naming the field, never 500', async () => {
    for (const [body, field] of [
      [{ loan_ids: null }, 'loan_ids'],
      [{ not_seen_days: null }, 'not_seen_days'],
      [{ limit: null }, 'limit'],
    ] as const) {
      const response = await service.request('POST', '/v2/analytics/portfolio-risk', { key: other.key, body });
      expect([field, response.status]).toEqual([field, 400]);
      expect((await json<ErrorAnswer>(response)).error).toMatchObject({ code: 'INVALID_PARAM', field });
    }
    for (const rawBody of ['null', '[]', '[{}]', '"x"', '7', 'true']) {
      const response = await service.request('POST', '/v2/analytics/portfolio-risk', { key: other.key, rawBody, headers: { 'content-type': 'application/json' } });
      expect([rawBody, response.status]).toEqual([rawBody, 400]);
      expect((await json<ErrorAnswer>(response)).error).toMatchObject({ code: 'INVALID_PARAM', field: 'body' });
    }
    expect((await service.request('POST', '/v2/analytics/portfolio-risk', { key: other.key })).status).toBe(200);
  });

  it('counts loans under an active flood alert once CAP alerts exist (the weather factor through ALERT_AREAS)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'banking-cap-')), 'flood.xml');
    writeFileSync(file, capAlert({ identifier: 'BANKING-FLOOD-1', expires: capExpiresIn(2) }));
    expect(await weatherImportCli(service.dataDir, [file], () => {})).toBe(0);
    const risk = await eventually(async () => {
      const answer = await data<{ factors: { weather_alert: { available: boolean; count?: number; loan_ids?: string[] } } }>(
        await service.request('POST', '/v2/analytics/portfolio-risk', { key: other.key, body: { loan_ids: ['risk-away', 'risk-unseen'] } }),
      );
      return answer.factors.weather_alert.available ? answer : undefined;
    });
    expect(risk.factors.weather_alert).toMatchObject({ available: true, count: 2 });
    expect([...(risk.factors.weather_alert.loan_ids ?? [])].sort()).toEqual(['risk-away', 'risk-unseen']);
  });

  it('schedules re-verifications, lists, reads and cancels them; another account sees none of them', async () => {
    const created = await service.request('POST', '/v2/verify/schedule', { key: lender.key, body: { loan_id: 'loan-hex', every_days: 30 } });
    expect(created.status).toBe(201);
    const schedule = await data<{ id: string; first_due_at: string }>(created);
    expect(schedule).toMatchObject({ status: 'active', customer_id: 'cust-2', loan_id: 'loan-hex', every_days: 30, method: 'kyc_address', address: '6Q3-HQK-Q4ZA', runs: 0, last_run: null });
    expect(Date.parse(schedule.first_due_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    const list = await data<{ items: Array<{ id: string }> }>(await service.request('GET', '/v2/verify/schedules', { key: lender.key }));
    expect(list.items.map((item) => item.id)).toContain(schedule.id);
    expect((await data<{ items: unknown[] }>(await service.request('GET', '/v2/verify/schedules', { key: other.key }))).items).toEqual([]);
    expect(await data(await service.request('GET', `/v2/verify/schedule/${schedule.id}`, { key: lender.key }))).toMatchObject({ id: schedule.id, status: 'active' });
    expect((await json<ErrorAnswer>(await service.request('GET', `/v2/verify/schedule/${schedule.id}`, { key: other.key }))).error.code).toBe('SCHEDULE_NOT_FOUND');
    expect((await json<ErrorAnswer>(await service.request('DELETE', `/v2/verify/schedule/${schedule.id}`, { key: other.key }))).error.code).toBe('SCHEDULE_NOT_FOUND');

    const noAddress = await service.request('POST', '/v2/verify/schedule', { key: lender.key, body: { customer_id: 'never-verified', every_days: 30 } });
    expect((await json<ErrorAnswer>(noAddress)).error).toMatchObject({ code: 'ADDRESS_REQUIRED', field: 'address' });
    const both = await service.request('POST', '/v2/verify/schedule', { key: lender.key, body: { customer_id: 'c', loan_id: 'loan-hex', every_days: 30 } });
    expect(both.status).toBe(400);

    const cancelled = await service.request('DELETE', `/v2/verify/schedule/${schedule.id}`, { key: lender.key });
    expect(await data(cancelled)).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(String) });
    expect((await data<{ items: Array<{ id: string }> }>(await service.request('GET', '/v2/verify/schedules?status=cancelled', { key: lender.key }))).items.map((item) => item.id)).toContain(schedule.id);
  });

  it("keeps each banking account's own calls in its audit log, and none of another's", async () => {
    const marker = `banking-${Math.random().toString(36).slice(2)}`;
    await service.request('GET', '/v2/collections/locate?loan_id=loan-point', { key: lender.key, headers: { 'x-request-id': `${marker}-mine` } });
    await service.request('POST', '/v2/analytics/portfolio-risk', { key: other.key, body: {}, headers: { 'x-request-id': `${marker}-theirs` } });
    const items = await eventually(async () => {
      const page = await data<{ items: Array<{ request_id: string; account_id: string; path: string; method: string }> }>(await service.request('GET', '/v2/banking/audit-log?limit=200', { key: lender.key }));
      return page.items.some((item) => item.request_id === `${marker}-mine`) ? page.items : undefined;
    });
    expect(items.every((item) => item.account_id === lender.accountId)).toBe(true);
    expect(items.map((item) => item.request_id)).not.toContain(`${marker}-theirs`);
    expect(items.find((item) => item.request_id === `${marker}-mine`)).toMatchObject({ method: 'GET', path: expect.stringContaining('/v2/collections/locate') });
    const paths = new Set(items.map((item) => `${item.method} ${item.path.split('?')[0]}`));
    for (const expected of ['POST /v2/collections/register', 'POST /v2/collections/bulk-register', 'POST /v2/verify/schedule', 'GET /v2/verify/schedules']) expect(paths).toContain(expected);
  });
});

/**
 * A due run is a delayed job on the job queue: with the injected clock moved
 * past the due time and the service restarted on the same data, the run
 * happens, re-verifies on the recorded pings, records its result and fires
 * the reverification.completed webhook.
 */
describe('re-verification runs', () => {
  it('runs when due, after a restart, on the latest evidence, records the result and fires its webhook', async () => {
    const deliveries: Array<{ headers: http.IncomingHttpHeaders; body: Record<string, unknown> }> = [];
    const receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        deliveries.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const realNow = systemClock.now.bind(systemClock);
    let service = await bootService();
    const dataDir = service.dataDir;
    try {
      const key = await signUp(service, 'Scheduler');
      const accountId = await accountOf(service, key);
      await service.request('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } });
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      expect((await service.request('POST', '/v2/webhooks/configure', { key, body: { url, secret: 'a-long-enough-secret-value', event_types: ['reverification.completed'] } })).status).toBeLessThan(300);
      // The borrower stays at the loan's hex: pings on three days, under a loan_collections consent.
      await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'cust-due', purpose: 'loan_collections' } });
      const pings = [1, 2, 3].flatMap((days) => [0, 1].map((minutes) => ({ customer_id: 'cust-due', lat: 5.6037, lng: -0.187, accuracy_m: 10, recorded_at: new Date(realNow().getTime() - days * 86_400_000 + minutes * 60_000).toISOString() })));
      expect((await service.request('POST', '/v2/monitoring/pings', { key, body: { pings } })).status).toBe(200);
      await service.request('POST', '/v2/collections/register', { key, body: { loan_id: 'loan-due', customer_id: 'cust-due', zone: { type: 'hex', code: '6Q3-HQK-Q4ZA' } } });
      const schedule = await data<{ id: string; next_due_at: string }>(await service.request('POST', '/v2/verify/schedule', { key, body: { loan_id: 'loan-due', every_days: 1 } }));
      expect(deliveries).toEqual([]);

      await service.close();
      jest.spyOn(systemClock, 'now').mockImplementation(() => new Date(realNow().getTime() + 86_400_000 + 60_000));
      service = await bootService({ dataDir });
      const ran = await eventually(async () => {
        const current = await data<{ runs: number }>(await service.request('GET', `/v2/verify/schedule/${schedule.id}`, { key }));
        return current.runs >= 1 ? current : undefined;
      }, 15_000);
      // ADR 30 (deliberate change): six identical pings posted at once are a burst, so the verification is `review`
      // (`not_verified` in the result's vocabulary) where it was `verified`; the run records whatever was decided.
      expect(ran).toMatchObject({ runs: 1, status: 'active', last_run: { run: 1, result: 'not_verified', verification_id: expect.stringMatching(/^vrf_/) } });
      expect(Date.parse((ran as unknown as { next_due_at: string }).next_due_at) - Date.parse(schedule.next_due_at)).toBe(86_400_000);
      const delivery = await eventually(async () => deliveries[0], 10_000);
      expect(delivery.headers['x-webhook-event']).toBe('reverification.completed');
      expect(delivery.body).toMatchObject({ event: 'reverification.completed', schedule_id: schedule.id, loan_id: 'loan-due', customer_id: 'cust-due', run: 1, result: 'not_verified', due_at: schedule.next_due_at });
    } finally {
      jest.restoreAllMocks();
      await service.close();
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 60_000);
  // Issue 31, item 5: the schedule kept running on nothing after the customer revoked consent and was erased. Deliberate
  // change (fair-writes task): the stop now follows the revocation and erasure themselves, so the reason is data_erased.
  it('is stopped, not run, when due after the customer has revoked consent and been erased, and says why', async () => {
    const realNow = systemClock.now.bind(systemClock);
    let service = await bootService();
    const dataDir = service.dataDir;
    try {
      const key = await signUp(service, 'Stopper');
      const accountId = await accountOf(service, key);
      await service.request('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } });
      await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'cust-gone', purpose: 'loan_collections' } });
      await service.request('POST', '/v2/collections/register', { key, body: { loan_id: 'loan-gone', customer_id: 'cust-gone', zone: { type: 'hex', code: '6Q3-HQK-Q4ZA' } } });
      const schedule = await data<{ id: string }>(await service.request('POST', '/v2/verify/schedule', { key, body: { loan_id: 'loan-gone', every_days: 1 } }));
      expect((await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: 'cust-gone' } })).status).toBe(200);
      expect((await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: 'cust-gone' } })).status).toBe(200);

      await service.close();
      jest.spyOn(systemClock, 'now').mockImplementation(() => new Date(realNow().getTime() + 86_400_000 + 60_000));
      service = await bootService({ dataDir });
      const stopped = await eventually(async () => {
        const current = await data<{ status: string }>(await service.request('GET', `/v2/verify/schedule/${schedule.id}`, { key }));
        return current.status !== 'active' ? current : undefined;
      }, 15_000);
      expect(stopped).toMatchObject({ status: 'stopped', stopped_reason: 'data_erased', stopped_at: expect.any(String), runs: 0, last_run: null });
      const listed = await eventually(async () => {
        const page = await data<{ items: Array<{ id: string }> }>(await service.request('GET', '/v2/verify/schedules?status=stopped', { key }));
        return page.items.length > 0 ? page.items : undefined;
      });
      expect(listed).toMatchObject([{ id: schedule.id, status: 'stopped', stopped_reason: 'data_erased' }]);
      expect((await data<{ items: unknown[] }>(await service.request('GET', '/v2/verify/schedules', { key }))).items).toEqual([]);
    } finally {
      jest.restoreAllMocks();
      await service.close();
    }
  }, 60_000);
  it("keeps a schedule's address only sealed under the customer's key: after revoke and delete-data it answers null and no byte of DATA_DIR holds it (issue 47)", async () => {
    const service = await bootService();
    let closed = false;
    try {
      const key = await signUp(service, 'Sealer');
      const accountId = await accountOf(service, key);
      await service.request('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } });
      const customer = 'cust-sched-sealed-8317';
      // Distinctive places nothing else of the run holds: a loan zone (its address is the anchor's code) and a given address.
      const loanPoint = { lat: 5.5723917, lng: -0.2231846 };
      const given = hexCodeForPoint(5.6187342, -0.1793518);
      const loanCode = hexCodeForPoint(loanPoint.lat, loanPoint.lng);
      await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: customer, purpose: 'loan_collections' } });
      expect((await service.request('POST', '/v2/collections/register', { key, body: { loan_id: 'loan-sched-sealed', customer_id: customer, zone: { type: 'point', ...loanPoint, radius_m: 300 } } })).status).toBe(200);
      const byLoan = await data<{ id: string; address: string }>(await service.request('POST', '/v2/verify/schedule', { key, body: { loan_id: 'loan-sched-sealed', every_days: 30 } }));
      const byCustomer = await data<{ id: string; address: string }>(await service.request('POST', '/v2/verify/schedule', { key, body: { customer_id: customer, every_days: 30, address: given } }));
      expect([byLoan.address, byCustomer.address]).toEqual([loanCode, given]);
      // Opened where it is read: the list (the read model) and the schedule (its stream) answer the addresses.
      const listed = await data<{ items: Array<{ id: string; customer_id: string; address: string | null }> }>(await service.request('GET', '/v2/verify/schedules', { key }));
      expect(listed.items.map(({ id, customer_id, address }) => ({ id, customer_id, address })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        [{ id: byLoan.id, customer_id: customer, address: loanCode }, { id: byCustomer.id, customer_id: customer, address: given }].sort((a, b) => a.id.localeCompare(b.id)),
      );
      expect(await data(await service.request('GET', `/v2/verify/schedule/${byCustomer.id}`, { key }))).toMatchObject({ customer_id: customer, address: given });

      expect((await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: customer } })).status).toBe(200);
      expect((await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: customer } })).status).toBe(200);
      const erased = await eventually(async () => {
        const page = await data<{ items: Array<{ id: string; stopped_reason: string }> }>(await service.request('GET', '/v2/verify/schedules?status=stopped', { key }));
        return page.items.length === 2 && page.items.every((item) => item.stopped_reason === 'data_erased') ? page.items : undefined;
      });
      expect(erased).toEqual(expect.arrayContaining([expect.objectContaining({ id: byLoan.id, customer_id: customer, address: null, status: 'stopped' }), expect.objectContaining({ id: byCustomer.id, address: null })]));
      for (const id of [byLoan.id, byCustomer.id]) {
        expect(await data(await service.request('GET', `/v2/verify/schedule/${id}`, { key }))).toMatchObject({ id, customer_id: customer, address: null, status: 'stopped', stopped_reason: 'data_erased' });
      }

      await service.close();
      closed = true;
      const needles = needlesFor({ customerId: customer, coordinates: [loanPoint.lat, loanPoint.lng], hexCodes: [loanCode, given] });
      const hits = [
        ...(await scanEventStore(path.join(service.dataDir, 'events'), needles)),
        ...(await scanReadStore(path.join(service.dataDir, 'read-models'), needles)),
        ...scanTree(service.dataDir, needles),
      ];
      // No copy of an address anywhere; the customer id nowhere in the schedules' read model (a pseudonym and ciphertext).
      expect(hits.filter((hit) => hit.needle.kind === 'location').map((hit) => `${hit.where}: ${hit.needle.label}`)).toEqual([]);
      expect(hits.filter((hit) => /reverification_schedules/.test(hit.where)).map((hit) => `${hit.where}: ${hit.needle.label}`)).toEqual([]);
      // The scan reads what it should: the customer id where the schedule's own record keeps it (the lender's book).
      expect(hits.map((hit) => hit.where)).toContain('event reverification_schedule/ReverificationScheduled');
    } finally {
      if (!closed) await service.close();
    }
  }, 60_000);
  // Issue 31 (fair-writes task, item 4): the stop waited for the next due run (up to every_days later); it now follows the revocation.
  it('stops at once when the customer revokes consent, and says why; an erasure after it says data_erased', async () => {
    const service = await bootService();
    try {
      const key = await signUp(service, 'Revoker');
      const accountId = await accountOf(service, key);
      await service.request('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } });
      await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'cust-now', purpose: 'loan_collections' } });
      await service.request('POST', '/v2/collections/register', { key, body: { loan_id: 'loan-now', customer_id: 'cust-now', zone: { type: 'hex', code: '6Q3-HQK-Q4ZA' } } });
      await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'cust-stays', purpose: 'loan_collections' } });
      await service.request('POST', '/v2/collections/register', { key, body: { loan_id: 'loan-stays', customer_id: 'cust-stays', zone: { type: 'hex', code: '6Q3-HQK-Q4ZA' } } });
      const schedule = await data<{ id: string }>(await service.request('POST', '/v2/verify/schedule', { key, body: { loan_id: 'loan-now', every_days: 30 } }));
      const other = await data<{ id: string }>(await service.request('POST', '/v2/verify/schedule', { key, body: { loan_id: 'loan-stays', every_days: 30 } }));
      // The schedules' read model has the new schedule before the revocation (the stop finds schedules there).
      await eventually(async () => ((await data<{ items: unknown[] }>(await service.request('GET', '/v2/verify/schedules', { key }))).items.length === 2 ? true : undefined));

      expect((await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: 'cust-now' } })).status).toBe(200);
      const stopped = await eventually(async () => {
        const current = await data<{ status: string }>(await service.request('GET', `/v2/verify/schedule/${schedule.id}`, { key }));
        return current?.status !== undefined && current.status !== 'active' ? current : undefined;
      });
      expect(stopped).toMatchObject({ status: 'stopped', stopped_reason: 'consent_revoked', stopped_at: expect.any(String), runs: 0 });
      const stoppedAt = (stopped as unknown as { stopped_at: string }).stopped_at;

      expect((await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: 'cust-now' } })).status).toBe(200);
      const erased = await eventually(async () => {
        const page = await data<{ items: Array<{ id: string; stopped_reason: string }> }>(await service.request('GET', '/v2/verify/schedules?status=stopped', { key }));
        return page.items[0]?.stopped_reason === 'data_erased' ? page.items : undefined;
      });
      // The stop keeps its time; the reason names the stronger fact.
      expect(erased).toMatchObject([{ id: schedule.id, status: 'stopped', stopped_reason: 'data_erased', stopped_at: stoppedAt }]);
      expect(await data(await service.request('GET', `/v2/verify/schedule/${schedule.id}`, { key }))).toMatchObject({ status: 'stopped', stopped_reason: 'data_erased' });
      // Another customer's schedule of the same account runs on.
      expect(await data(await service.request('GET', `/v2/verify/schedule/${other.id}`, { key }))).toMatchObject({ status: 'active', stopped_reason: null });
    } finally {
      await service.close();
    }
  }, 60_000);
});

/** interface.md: GET /v2/analytics/retail-density (Enterprise tier), from the place datasets. */
describe('retail density', () => {
  let service: Service;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-retail-'));
    await importOsm(new FileDatasetStore(path.join(dataDir, 'reference')), path.resolve(import.meta.dirname, '../libs/banking/src/__fixtures__/retail-sample.osm'));
    service = await bootService({ dataDir });
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  it('counts retail places per hex for the Enterprise tier only, with a capped bbox', async () => {
    const key = await signUp(service, 'Analyst');
    const url = '/v2/analytics/retail-density?bbox=5.57,5.54,-0.18,-0.21';
    const refused = await service.request('GET', url, { key });
    expect(refused.status).toBe(403);
    expect((await json<ErrorAnswer>(refused)).error.code).toBe('TIER_REQUIRED');
    await service.request('PUT', `/v2/admin/accounts/${await accountOf(service, key)}/tier`, { key: ADMIN_KEY, body: { tier: 'enterprise' } });

    const answer = await service.request('GET', url, { key });
    expect(answer.status).toBe(200);
    const collection = await data<{ type: string; resolution: number; totals: Record<string, number>; features: Array<{ type: string; geometry: { type: string; coordinates: number[][][] }; properties: Record<string, unknown> }>; attribution: string[] }>(answer);
    expect(collection).toMatchObject({ type: 'FeatureCollection', resolution: 8, totals: { shops: 3, markets: 1, supermarkets: 1, malls: 0, mobile_money_agents: 2 }, attribution: ['© OpenStreetMap contributors'] });
    expect(collection.features.map((feature) => feature.properties)).toEqual([
      { hex_code: expect.any(String), h3_cell: expect.any(String), shops: 2, markets: 1, supermarkets: 0, malls: 0, mobile_money_agents: 1, total: 4 },
      { hex_code: expect.any(String), h3_cell: expect.any(String), shops: 1, markets: 0, supermarkets: 1, malls: 0, mobile_money_agents: 1, total: 3 },
    ]);
    expect(collection.features[0].geometry.type).toBe('Polygon');
    expect(collection.features[0].geometry.coordinates[0]).toHaveLength(7);

    const wide = await data<{ totals: Record<string, number> }>(await service.request('GET', '/v2/analytics/retail-density?bbox=5.7,5.5,-0.1,-0.3&resolution=6', { key }));
    expect(wide.totals).toMatchObject({ malls: 1 });
    for (const bad of ['bbox=6.1,5.5,-0.1,-0.3', 'bbox=5.5,5.6,-0.1,-0.2', 'bbox=north', 'bbox=5.57,5.54,-0.18,-0.21&resolution=12']) {
      const response = await service.request('GET', `/v2/analytics/retail-density?${bad}`, { key });
      expect([bad, response.status]).toEqual([bad, 400]);
    }
  });
});
