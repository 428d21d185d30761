import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN_KEY, bootService, type Service } from './support/boot.js';
import { accountOf, data, json, signUp } from './support/http.js';

/**
 * Issue 26, item 5: `GET /v2/consents` lists the calling account's consent
 * records with cursor pagination (docs/adr/0032, "Listing"). The read model
 * names customers by pseudonym and holds their ids sealed under a key an
 * erasure destroys: an erased customer stays listed, with `customer_id: null`
 * (test/monitoring.e2e-spec.ts greps the data folder for the id).
 */
const NOTICE = { version: '2026-11-v3', sha256: createHash('sha256').update('notice text', 'utf8').digest('hex'), language: 'tw' };

interface Item {
  consent_id: string;
  customer_id: string | null;
  status: string;
  purpose: string;
  scope: string[];
  notice: { version: string; sha256: string | null; language: string };
  channel: string;
  captured_at: string | null;
  granted_at: string;
  revoked_at: string | null;
  erased_at: string | null;
  receipt_ids: string[];
}
interface Page {
  items: Item[];
  next_cursor: string | null;
}

describe('GET /v2/consents', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-consents-'));
  let service: Service;
  beforeAll(async () => {
    service = await bootService({ dataDir });
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  const post = async <T>(key: string, url: string, body: unknown): Promise<T> => {
    const response = await service.request('POST', url, { key, body });
    expect(response.status).toBe(200);
    return data<T>(response);
  };
  const list = async (key: string, query = ''): Promise<Page> => {
    const response = await service.request('GET', `/v2/consents${query}`, { key });
    const answer = await json<{ data: Page; error?: unknown }>(response);
    expect({ status: response.status, error: answer.error }).toEqual({ status: 200, error: undefined });
    return answer.data;
  };
  const all = async (key: string, query = '', limit = 2): Promise<Item[]> => {
    const items: Item[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await list(key, `?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(limit);
      items.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor);
    return items;
  };

  it("pages through the account's consents, active, revoked and erased, and no other account's", async () => {
    const key = await signUp(service, 'Lister');
    const other = await signUp(service, 'Other');
    const captured_at = new Date(Date.now() - 60_000).toISOString();
    const granted = await post<{ consent_id: string; granted_at: string }>(key, '/v2/consent/grant', { customer_id: 'cl-1', purpose: 'loan_collections', notice: NOTICE, channel: 'ussd', captured_at });
    const second = await post<{ consent_id: string }>(key, '/v2/consent/grant', { customer_id: 'cl-2' });
    const third = await post<{ consent_id: string }>(key, '/v2/consent/grant', { customer_id: 'cl-3', scope: ['location', 'device'] });
    await post(key, '/v2/consent/revoke', { customer_id: 'cl-2' });
    await post(key, '/v2/consent/revoke', { customer_id: 'cl-3' });
    await post(key, '/v2/consent/delete-data', { customer_id: 'cl-3' });
    await post(other, '/v2/consent/grant', { customer_id: 'cl-1' });

    const items = await all(key);
    expect(items).toHaveLength(3);
    // Ordered by the pseudonym: stable and opaque, so the order is the same page after page but says nothing.
    expect(await all(key, '', 1)).toEqual(items);
    const byId = new Map(items.map((item) => [item.consent_id, item]));
    expect(byId.get(granted.consent_id)).toEqual({
      consent_id: granted.consent_id,
      customer_id: 'cl-1',
      status: 'active',
      purpose: 'loan_collections',
      scope: ['location'],
      notice: NOTICE,
      channel: 'ussd',
      captured_at,
      granted_at: granted.granted_at,
      revoked_at: null,
      erased_at: null,
      receipt_ids: [`${granted.consent_id}.granted`],
    });
    expect(byId.get(second.consent_id)).toMatchObject({ customer_id: 'cl-2', status: 'revoked', revoked_at: expect.any(String), channel: 'unspecified', notice: { version: 'unspecified', sha256: null, language: 'unspecified' } });
    expect(byId.get(second.consent_id)!.receipt_ids).toEqual([`${second.consent_id}.granted`, `${second.consent_id}.revoked`]);
    // Erased: still on record, but the customer's id went with their data key.
    expect(byId.get(third.consent_id)).toMatchObject({ customer_id: null, status: 'erased', scope: ['location', 'device'], revoked_at: expect.any(String), erased_at: expect.any(String) });
    expect(byId.get(third.consent_id)!.receipt_ids).toEqual([`${third.consent_id}.granted`, `${third.consent_id}.revoked`, `${third.consent_id}.erased`]);

    expect((await all(key, '&status=revoked')).map((item) => item.customer_id)).toEqual(['cl-2']);
    expect((await all(key, '&status=active')).map((item) => item.customer_id)).toEqual(['cl-1']);
    expect((await all(key, '&status=erased')).map((item) => item.consent_id)).toEqual([third.consent_id]);

    // Another account sees only its own: the same customer id there is another customer.
    const theirs = await all(other);
    expect(theirs.map((item) => [item.customer_id, item.status])).toEqual([['cl-1', 'active']]);
    expect(theirs[0].consent_id).not.toBe(granted.consent_id);
  }, 60_000);

  it('shows a new grant after an erasure as active again, under its new consent id', async () => {
    const key = await signUp(service, 'Regrant');
    await post(key, '/v2/consent/grant', { customer_id: 'rg-1' });
    await post(key, '/v2/consent/revoke', { customer_id: 'rg-1' });
    await post(key, '/v2/consent/delete-data', { customer_id: 'rg-1' });
    expect((await list(key)).items).toMatchObject([{ customer_id: null, status: 'erased' }]);
    const again = await post<{ consent_id: string }>(key, '/v2/consent/grant', { customer_id: 'rg-1' });
    expect((await list(key)).items).toMatchObject([{ consent_id: again.consent_id, customer_id: 'rg-1', status: 'active', revoked_at: null, erased_at: null }]);
  }, 30_000);

  it('refuses a bad limit, status or cursor with 400 naming the field, and a missing key with 401 and a key without an account with 403', async () => {
    const key = await signUp(service, 'Picky');
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?status=granted', 'status'],
      ['?cursor=not-a-cursor', 'cursor'],
    ] as const) {
      const response = await service.request('GET', `/v2/consents${query}`, { key });
      const body = await json<{ error: { code: string; message: string; field?: string } }>(response);
      expect({ query, status: response.status, mentions: JSON.stringify(body.error).includes(field) }).toEqual({ query, status: 400, mentions: true });
    }
    expect((await service.request('GET', '/v2/consents')).status).toBe(401);
    const legacy = await data<{ key: string }>(await service.request('POST', '/v2/admin/keys', { key: ADMIN_KEY, body: { name: 'old integration', tier: 'pro' } }));
    const refused = await service.request('GET', '/v2/consents', { key: legacy.key });
    expect({ status: refused.status, code: (await json<{ error: { code: string } }>(refused)).error.code }).toEqual({ status: 403, code: 'ACCOUNT_KEY_REQUIRED' });
  });

  it('lists grants stored before consent records were sealed, once the start-up backfill sealed them; erased ones with no customer id', async () => {
    const key = await signUp(service, 'Legacy');
    const account = await accountOf(service, key);
    const events = service.runtime.backends.events;
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const legacy = (type: string, data: Record<string, unknown>) => ({ type, data: { account_id: account, ...data }, metadata: { schema_version: 1 } });
    // As stored before this change: no consent id, no pseudonym, no sealed customer id.
    await events.append(`consent-${account}:old-1`, [legacy('ConsentGranted', { customer_id: 'old-1', purpose: 'fleet_dispatch', scope: ['location'], granted_at: at(30) })], 'no_stream');
    await events.append(
      `consent-${account}:old-2`,
      [
        legacy('ConsentGranted', { customer_id: 'old-2', purpose: 'unspecified', scope: ['location'], granted_at: at(20) }),
        legacy('ConsentRevoked', { customer_id: 'old-2', revoked_at: at(10) }),
        legacy('CustomerDataErased', { customer_id: 'old-2', erased_at: at(5), erased_by: 'abcd…', events_erased: 0 }),
      ],
      'no_stream',
    );
    // The backfill runs when the service starts.
    await service.close();
    service = await bootService({ dataDir });
    const { items } = await (async () => {
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const page = await list(key);
        if (page.items.length === 2) return page;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return list(key);
    })();
    const byStatus = Object.fromEntries(items.map((item) => [item.status, item]));
    expect(byStatus.active).toMatchObject({ customer_id: 'old-1', purpose: 'fleet_dispatch', consent_id: expect.stringMatching(/^cr_legacy_/), channel: 'unspecified' });
    expect(byStatus.erased).toMatchObject({ customer_id: null, consent_id: expect.stringMatching(/^cr_legacy_/), revoked_at: expect.any(String), erased_at: expect.any(String) });
    // Their consent ids are those the status and the receipts use.
    const status = await data<{ consent_id: string }>(await service.request('GET', '/v2/consent/status?customer_id=old-1', { key }));
    expect(byStatus.active.consent_id).toBe(status.consent_id);
    // A second start finds nothing left to seal: the log holds one record per legacy stream.
    await service.close();
    service = await bootService({ dataDir });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sealed = (await service.runtime.backends.events.readStream(`consent-${account}:old-1`)).filter((event) => event.type === 'ConsentRecordSealed');
    expect(sealed).toHaveLength(1);
    expect(JSON.stringify(sealed[0].data)).not.toMatch(/"customer_sealed":null/);
  }, 90_000);
});
