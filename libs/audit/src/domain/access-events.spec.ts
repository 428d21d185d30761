import { accessStream, canonicalJson, GENESIS_HASH, link, verifyChain, type AccessEntry } from './access-events.js';

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

  it('names one stream per account and one for the platform', () => {
    expect(accessStream('acct_9')).toBe('access_log-acct_9');
    expect(accessStream(null)).toBe('access_log-platform');
  });
});
