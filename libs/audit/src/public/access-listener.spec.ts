import { createHash } from 'node:crypto';
import { canonicalJson, chainHash, GENESIS_HASH, link, verifyChain, type AccessEntry } from '../domain/access-events.js';
import { namedCustomer } from './access-listener.js';

describe('the customer an access names', () => {
  const named = (parts: { params?: unknown; query?: unknown; body?: unknown }) => namedCustomer({ params: parts.params ?? {}, query: parts.query ?? {}, body: parts.body });

  it('takes the path, then the query, then the body', () => {
    expect(named({ params: { customer_id: 'cust-1' }, query: { customer_id: 'cust-2' }, body: { customer_id: 'cust-3' } })).toBe('cust-1');
    expect(named({ query: { customer_id: 'cust-2' }, body: { customer_id: 'cust-3' } })).toBe('cust-2');
    expect(named({ body: { customer_id: 'cust-3', lat: 5.6 } })).toBe('cust-3');
    expect(named({ query: { loan_id: 'loan-1' } })).toBeUndefined();
  });

  it('names the one customer of a ping batch, and nobody for a batch of several', () => {
    const ping = (customer: string) => ({ customer_id: customer, lat: 5.6, lng: -0.2 });
    expect(named({ body: { pings: [ping('c-1'), ping('c-1')] } })).toBe('c-1');
    expect(named({ body: { pings: [ping('c-1'), ping('c-2')] } })).toBeUndefined();
    expect(named({ body: { pings: [] } })).toBeUndefined();
  });

  it('names nobody with a value that is not a customer id', () => {
    expect(named({ body: { customer_id: 'bad id!' } })).toBeUndefined();
    expect(named({ body: { customer_id: 42 } })).toBeUndefined();
    expect(named({ query: { customer_id: 'x'.repeat(129) } })).toBeUndefined();
    expect(named({ body: { pings: [{ customer_id: 'bad id!' }, { customer_id: 'bad id!' }] } })).toBeUndefined();
    expect(named({ body: Buffer.from('{"customer_id":"c-1"}') })).toBeUndefined();
    expect(named({ body: [{ customer_id: 'c-1' }] })).toBeUndefined();
  });

  it('hashes an entry naming a customer as the canonical JSON the offline verifier computes', () => {
    const entry: AccessEntry = {
      account_id: 'acct_1',
      key_prefix: 'abcd1234…',
      principal_kind: 'user',
      method: 'POST',
      path: '/v2/consent/access-request',
      status: 200,
      client_ip: '203.0.113.7',
      at: '2026-12-01T09:00:00.000Z',
      request_id: 'req-1',
      customer_id: 'cust-9',
    };
    // tools/verify-audit-bundle.mjs: sha256(prev_hash "\n" seq "\n" canonical JSON of the entry without its link fields).
    const expected = createHash('sha256').update(`${GENESIS_HASH}\n3\n${canonicalJson(entry)}`).digest('hex');
    expect(chainHash(GENESIS_HASH, 3, entry)).toBe(expected);
    expect(canonicalJson(entry)).toContain('"client_ip":"203.0.113.7","customer_id":"cust-9","key_prefix"');
    const { customer_id: _customer, ...without } = entry;
    const chain = link([without, entry, without], undefined).map((event) => event.data);
    expect(Object.hasOwn(chain[0], 'customer_id')).toBe(false);
    expect(verifyChain(chain).ok).toBe(true);
    // The customer is under the hash: naming another one breaks the chain there.
    expect(verifyChain([chain[0], { ...chain[1], customer_id: 'cust-8' }, chain[2]])).toMatchObject({ ok: false, brokenAt: 1 });
  });
});
