import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { data } from './support/http.js';

/**
 * Issue 51, "who looked": every access entry names the customer its request
 * named (path, query, body, or the one customer of a ping batch), under the
 * chain's hash; GET /v2/banking/audit-log/customers/{customer_id} lists them
 * for the calling account only.
 */
const root = path.resolve(import.meta.dirname, '..');

interface Item {
  path: string;
  method: string;
  status: number;
  customer_id?: string;
  key_prefix: string;
  at: string;
}
interface Page {
  items: Item[];
  next_cursor: string | null;
}

describe('GET /v2/banking/audit-log/customers/{customer_id}', () => {
  let service: Service;

  async function bankingKey(name: string): Promise<string> {
    const email = `${name}-${Math.random().toString(36).slice(2)}@example.com`;
    const key = (await data<{ key: string }>(await service.request('POST', '/v2/self/signup', { body: { name, email } }))).key;
    const { account_id } = await data<{ account_id: string }>(await service.request('GET', '/v2/me', { key }));
    expect((await service.request('POST', `/v2/admin/accounts/${account_id}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
    expect((await service.request('PUT', `/v2/admin/accounts/${account_id}/tier`, { key: ADMIN_KEY, body: { tier: 'enterprise' } })).status).toBe(200);
    return key;
  }
  const status = async (method: string, url: string, key: string, body?: unknown) => (await service.request(method, url, { key, body })).status;
  /**
   * Waits until the account's log (which names no customer itself) has `count` entries naming the customer: asking the
   * customer's log would add to it, since that call names the customer too.
   */
  async function projected(key: string, customer: string, count: number): Promise<void> {
    await eventually(async () => {
      const page = await data<Page>(await service.request('GET', '/v2/banking/audit-log?limit=200', { key }));
      return page.items.filter((item) => item.customer_id === customer).length >= count ? true : undefined;
    }, 10_000);
  }
  const customerLog = async (key: string, customer: string, query = '') => data<Page>(await service.request('GET', `/v2/banking/audit-log/customers/${customer}${query}`, { key }));

  beforeAll(async () => {
    service = await bootService({ env: { AUDIT_CHECKPOINT_INTERVAL_S: '0' } });
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  it("lists the calls that named the customer, by path, query, body or ping batch, and nothing of another customer or account", async () => {
    const key = await bankingKey('lender');
    const other = await bankingKey('other');
    expect(await status('POST', '/v2/consent/grant', key, { customer_id: 'ama-1', purpose: 'loan_collections' })).toBe(200);
    expect(await status('POST', '/v2/consent/grant', key, { customer_id: 'kofi-2' })).toBe(200);
    expect(await status('PUT', '/v2/monitoring/zones/ama-1', key, { lat: 5.55, lng: -0.21 })).toBe(200);
    expect(await status('GET', '/v2/consent/status?customer_id=ama-1', key)).toBe(200);
    expect(await status('POST', '/v2/monitoring/pings', key, { pings: [{ customer_id: 'ama-1', lat: 5.55, lng: -0.21 }, { customer_id: 'ama-1', lat: 5.551, lng: -0.21 }] })).toBe(200);
    // A batch of two customers names neither; a refused call is still an access to the customer it named.
    expect(await status('POST', '/v2/monitoring/pings', key, { pings: [{ customer_id: 'ama-1', lat: 5.55, lng: -0.21 }, { customer_id: 'kofi-2', lat: 5.55, lng: -0.21 }] })).toBe(200);
    expect(await status('PUT', '/v2/monitoring/zones/ama-1', key, { lat: 95, lng: -0.21 })).toBe(400);
    expect(await status('GET', '/v2/me', key)).toBe(200);
    // The same id in another account is that account's customer.
    expect(await status('POST', '/v2/consent/grant', other, { customer_id: 'ama-1' })).toBe(200);

    // Each account's chain reaches the read model in its own append: wait for both, not the first alone.
    await projected(key, 'ama-1', 5);
    await projected(other, 'ama-1', 1);
    const log = await customerLog(key, 'ama-1');
    expect(log.items.map((item) => `${item.method} ${item.path} ${item.status}`)).toEqual([
      'PUT /v2/monitoring/zones/ama-1 400',
      'POST /v2/monitoring/pings 200',
      'GET /v2/consent/status 200',
      'PUT /v2/monitoring/zones/ama-1 200',
      'POST /v2/consent/grant 200',
    ]);
    expect(log.items.every((item) => item.customer_id === 'ama-1')).toBe(true);
    expect(log.next_cursor).toBeNull();
    // The other account sees its own call about its ama-1, and only it.
    expect((await customerLog(other, 'ama-1')).items.map((item) => item.path)).toEqual(['/v2/consent/grant']);
    // The account's whole log names the customers where the calls named one.
    const all = await data<Page>(await service.request('GET', '/v2/banking/audit-log?limit=50', { key }));
    expect(all.items.find((item) => item.path === '/v2/me')?.customer_id).toBeUndefined();
    expect(all.items.filter((item) => item.customer_id === 'kofi-2').map((item) => item.path)).toEqual(['/v2/consent/grant']);
  }, 60_000);

  it('pages with limit and cursor and filters by time, newest first', async () => {
    const key = await bankingKey('pager');
    expect(await status('POST', '/v2/consent/grant', key, { customer_id: 'efua-3' })).toBe(200);
    for (let index = 0; index < 4; index++) expect(await status('GET', '/v2/consent/status?customer_id=efua-3', key)).toBe(200);
    await projected(key, 'efua-3', 5);
    const first = await customerLog(key, 'efua-3', '?limit=2');
    expect(first.items).toHaveLength(2);
    const second = await customerLog(key, 'efua-3', `?limit=2&cursor=${encodeURIComponent(first.next_cursor!)}`);
    const third = await customerLog(key, 'efua-3', `?limit=2&cursor=${encodeURIComponent(second.next_cursor!)}`);
    const walked = [...first.items, ...second.items, ...third.items];
    expect(walked.map((item) => item.path).at(-1)).toBe('/v2/consent/grant');
    expect(third.next_cursor).toBeNull();
    const times = walked.map((item) => item.at);
    expect(times).toEqual([...times].sort().reverse());
    expect(walked).toHaveLength(5);
    // Until an instant (exclusive): the older entries only (the paging calls above named the customer too, after it).
    const until = await customerLog(key, 'efua-3', `?to=${encodeURIComponent(times[1])}`);
    expect(until.items.map((item) => item.at)).toEqual(times.slice(2));
  }, 60_000);

  it('refuses a bad customer id, an account without banking and no key, in the envelope', async () => {
    const key = await bankingKey('refusals');
    const bad = await service.request('GET', '/v2/banking/audit-log/customers/bad%20id!', { key });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ success: false, error: { code: 'INVALID_PARAM', field: 'customer_id' } });
    expect((await service.request('GET', `/v2/banking/audit-log/customers/${'x'.repeat(129)}`, { key })).status).toBe(400);
    expect((await service.request('GET', '/v2/banking/audit-log/customers/ama-1?limit=0', { key })).status).toBe(400);
    const plain = (await data<{ key: string }>(await service.request('POST', '/v2/self/signup', { body: { name: 'Plain', email: `plain-${Math.random().toString(36).slice(2)}@example.com` } }))).key;
    const refused = await service.request('GET', '/v2/banking/audit-log/customers/ama-1', { key: plain });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'BANKING_ACCESS_REQUIRED' } });
    expect((await service.request('GET', '/v2/banking/audit-log/customers/ama-1')).status).toBe(401);
  }, 60_000);

  it('keeps the customer under the hash: the export carries it and the offline tool verifies it; an edited customer is caught', async () => {
    const key = await bankingKey('exporter');
    expect(await status('POST', '/v2/consent/grant', key, { customer_id: 'yaw-4' })).toBe(200);
    expect(await status('GET', '/v2/consent/status?customer_id=yaw-4', key)).toBe(200);
    const bundle = await data<{ entries: Array<{ customer_id?: string; path: string }> }>(await service.request('GET', '/v2/banking/audit-log/export', { key }));
    expect(bundle.entries.filter((entry) => entry.customer_id === 'yaw-4').map((entry) => entry.path)).toEqual(['/v2/consent/grant', '/v2/consent/status']);
    const jwks = await (await service.request('GET', '/v2/.well-known/jwks.json')).json();
    const run = (document: unknown) => {
      writeFileSync(path.join(service.dataDir, 'bundle.json'), JSON.stringify(document));
      writeFileSync(path.join(service.dataDir, 'jwks.json'), JSON.stringify(jwks));
      return spawnSync(process.execPath, [path.join(root, 'tools/verify-audit-bundle.mjs'), path.join(service.dataDir, 'bundle.json'), path.join(service.dataDir, 'jwks.json')], { encoding: 'utf8' }).stdout;
    };
    expect(run(bundle)).toMatch(/^OK .*; signed to its last entry\n$/);
    const index = bundle.entries.findIndex((entry) => entry.customer_id === 'yaw-4');
    bundle.entries[index].customer_id = 'yaw-5';
    expect(run(bundle)).toMatch(new RegExp(`^BAD: entry #${index} .*hash mismatch \\(the entry was edited\\)\\n$`));
  }, 60_000);
});
