import { accessStream, canonicalJson, chainHash, GENESIS_HASH, link, verifyChain, type AccessEntry } from './access-events.js';

const entry = (n: number): AccessEntry => ({
  account_id: 'acct_1',
  key_prefix: 'abcd1234…',
  principal_kind: 'key',
  method: 'GET',
  path: `/v2/things/${n}`,
  status: 200,
  client_ip: '203.0.113.7',
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  request_id: `req-${n}`,
});

describe('access chain', () => {
  const chain = () => link([entry(0), entry(1), entry(2), entry(3)], undefined).map((event) => event.data);

  it('links a fresh chain from the genesis hash and verifies it', () => {
    const data = chain();
    expect(data[0].prev_hash).toBe(GENESIS_HASH);
    expect(data[2].prev_hash).toBe(data[1].hash);
    expect(verifyChain(data)).toEqual({ ok: true, entries: 4, head: data[3].hash });
  });

  it('continues an existing chain from its head', () => {
    const first = link([entry(0), entry(1)], undefined).map((event) => event.data);
    const next = link([entry(2)], { prevHash: first[1].hash, seq: first[1].seq }).map((event) => event.data);
    expect(verifyChain([...first, ...next]).ok).toBe(true);
    expect(verifyChain([...first, ...chain().slice(2)]).ok).toBe(true);
  });

  it('detects an edited entry', () => {
    const data = chain();
    data[2] = { ...data[2], status: 500 };
    expect(verifyChain(data)).toMatchObject({ ok: false, brokenAt: 2, reason: expect.stringContaining('edited') });
  });

  it('detects a removed entry', () => {
    const data = chain();
    data.splice(1, 1);
    expect(verifyChain(data)).toMatchObject({ ok: false, brokenAt: 1 });
  });

  it('detects a removed entry even when the sequence numbers are rewritten', () => {
    const data = chain();
    const forged = [data[0], { ...data[2], seq: 1 }, { ...data[3], seq: 2 }];
    expect(verifyChain(forged)).toMatchObject({ ok: false, brokenAt: 1, reason: expect.stringContaining('link') });
  });

  it('hashes independently of field order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
  });

  it('hashes entries exactly as chains already stored were hashed (fixed vectors, fields in any order)', () => {
    // Computed with the first implementation (createHash over the sorted-key canonical JSON), so stored chains keep verifying.
    const stored = {
      request_id: 'req-"1"',
      account_id: null,
      key_prefix: 'abcd1234…',
      principal_kind: 'key',
      method: 'GET',
      path: '/v2/ünïcode/\u2028',
      status: 200,
      client_ip: '203.0.113.7',
      at: '2026-01-01T00:00:00.000Z',
    };
    expect(chainHash(GENESIS_HASH, 0, stored)).toBe('9cc8a9db06e263c938bdd7d4e98f057843fec1eb8c6a061a157870b412f5cf30');
    // An entry with a field the usual shape lacks takes the general canonical form.
    const extended = { ...stored, account_id: 'acct_1', extra: { b: 1, a: [2] } } as AccessEntry;
    expect(chainHash(GENESIS_HASH, 7, extended)).toBe('78abd7a44b24128544aa97933f2b29cec88b4b3a3401ba2e61d45b3de3256783');
  });

  it('stores each entry with its link fields and nothing of another entry', () => {
    const [first, second] = link([entry(0), entry(1)], undefined);
    expect(first.data).toEqual({ ...entry(0), seq: 0, prev_hash: GENESIS_HASH, hash: first.data.hash });
    expect(second.data).toEqual({ ...entry(1), seq: 1, prev_hash: first.data.hash, hash: second.data.hash });
  });

  it('names one stream per account and one for the platform', () => {
    expect(accessStream('acct_9')).toBe('access_log-acct_9');
    expect(accessStream(null)).toBe('access_log-platform');
  });
});
