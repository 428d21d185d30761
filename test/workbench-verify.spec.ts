import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CompactSign, exportJWK, type JWK } from 'jose';
import { link, type AccessEntry } from '../libs/audit/src/index.js';

/**
 * The workbench's verifier (libs/console/src/assets/workbench-verify.js, run in
 * the browser with WebCrypto) and tools/verify-audit-bundle.mjs (node:crypto)
 * apply the same rules: on a good bundle and on each way of spoiling one, both
 * say the same line (issue 51). The browser test checks the page on a real
 * export; this checks every rule on bundles made here.
 */
const root = path.resolve(import.meta.dirname, '..');
const TOOL = path.join(root, 'tools/verify-audit-bundle.mjs');

interface Verdict {
  ok: boolean;
  error?: string;
}
interface WebVerifier {
  verifyBundle(bundle: unknown, jwks: unknown): Promise<Verdict>;
  verifyBundleFile(bytes: Uint8Array, jwks: unknown): Promise<Verdict>;
  verdictLine(verdict: Verdict): string;
  verifyCustomerCopy(copy: unknown, jwks: unknown): Promise<Verdict>;
}
interface ToolVerifier {
  verifyBundle(bundle: unknown, jwks: unknown): Verdict;
}

type Entry = AccessEntry & { seq: number; prev_hash: string; hash: string };
interface Bundle {
  format: string;
  stream: string;
  from: string | null;
  to: string | null;
  anchor: { seq: number; hash: string; token: string } | null;
  entries: Entry[];
  checkpoints: Array<{ kid: string; token: string }>;
}

describe("the workbench's bundle verifier and the offline tool", () => {
  let web: WebVerifier;
  let tool: ToolVerifier;
  let jwks: { keys: JWK[] };
  let privateKey: ReturnType<typeof generateKeyPairSync>['privateKey'];
  let dir: string;
  const KID = 'test-key-1';
  const STREAM = 'access_log-acct_test';

  const sign = (claims: object, typ = 'audit-checkpoint') => new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg: 'EdDSA', kid: KID, typ }).sign(privateKey);
  const checkpoint = async (entry: Entry, stream = STREAM) => ({ kid: KID, token: await sign({ typ: 'audit-checkpoint', stream, seq: entry.seq, hash: entry.hash, signed_at: entry.at }) });

  const entries = (count: number): Entry[] =>
    link(
      Array.from({ length: count }, (_, index): AccessEntry => ({
        account_id: 'acct_test',
        key_prefix: 'abcd1234…',
        principal_kind: index % 2 ? 'user' : 'key',
        method: index % 3 ? 'GET' : 'POST',
        path: `/v2/things/${index}`,
        status: 200,
        client_ip: '203.0.113.9',
        at: new Date(Date.UTC(2026, 11, 1, 9, 0, index)).toISOString(),
        request_id: `req-${index}`,
        ...(index % 4 === 1 ? { customer_id: `cust-${index}` } : {}),
      })),
      undefined,
    ).map((event) => event.data as Entry);

  async function goodBundle(): Promise<Bundle> {
    const chain = entries(8);
    return { format: 'audit-bundle/1', stream: STREAM, from: null, to: null, anchor: null, entries: chain, checkpoints: [await checkpoint(chain[3]), await checkpoint(chain[7])] };
  }

  /** Both verdicts, as lines: the web module's, the tool's function's and the tool run on the file. */
  async function verdicts(bundle: unknown, bytes?: Buffer): Promise<{ web: string; tool: string; cli: string }> {
    const file = path.join(dir, `bundle-${Math.random().toString(36).slice(2)}.json${bytes && bytes[0] === 0x1f ? '.gz' : ''}`);
    const raw = bytes ?? Buffer.from(JSON.stringify(bundle));
    writeFileSync(file, raw);
    const cli = spawnSync(process.execPath, [TOOL, file, path.join(dir, 'jwks.json')], { encoding: 'utf8' }).stdout.trim();
    return { web: web.verdictLine(await web.verifyBundleFile(new Uint8Array(raw), jwks)), tool: bytes ? cli : web.verdictLine(tool.verifyBundle(bundle, jwks)), cli };
  }

  beforeAll(async () => {
    web = (await import(pathToFileURL(path.join(root, 'libs/console/src/assets/workbench-verify.js')).href)) as WebVerifier;
    tool = (await import(pathToFileURL(TOOL).href)) as ToolVerifier;
    const pair = generateKeyPairSync('ed25519');
    privateKey = pair.privateKey;
    jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'EdDSA', use: 'sig' }] };
    dir = mkdtempSync(path.join(tmpdir(), 'workbench-verify-'));
    writeFileSync(path.join(dir, 'jwks.json'), JSON.stringify({ data: jwks }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('agree on a good bundle, bare, in its envelope or gzipped', async () => {
    const bundle = await goodBundle();
    const bare = await verdicts(bundle);
    expect(bare.web).toBe('OK access_log-acct_test: 8 entries verified (8 in range), 2 signed checkpoints; signed to its last entry');
    expect(bare.tool).toBe(bare.web);
    expect(bare.cli).toBe(bare.web);
    expect((await verdicts(null, Buffer.from(JSON.stringify({ success: true, data: bundle })))).web).toBe(bare.web);
    const gz = await verdicts(null, gzipSync(JSON.stringify(bundle)));
    expect(gz.web).toBe(bare.web);
    expect(gz.cli).toBe(bare.web);
  });

  const spoilings: Array<[string, (bundle: Bundle) => Promise<void> | void, RegExp]> = [
    ['an edited entry', (b) => void (b.entries[5].status = 500), /^BAD: entry #5 \(seq 5, request req-5, at .+\): hash mismatch \(the entry was edited\)$/],
    ['an edited customer', (b) => void (b.entries[1].customer_id = 'cust-other'), /^BAD: entry #1 .*hash mismatch/],
    ['a customer added to an entry', (b) => void (b.entries[2].customer_id = 'cust-2'), /^BAD: entry #2 .*hash mismatch/],
    ['a removed entry', (b) => void b.entries.splice(2, 1), /^BAD: entry #2 \(seq 3, .*sequence gap or reorder: expected seq 2$/],
    ['a removed entry with the numbers rewritten', (b) => void b.entries.splice(2, 1, { ...b.entries[3], seq: 2 }), /^BAD: entry #2 .*does not link to the entry before it/],
    ['two entries swapped', (b) => void ([b.entries[3], b.entries[4]] = [b.entries[4], b.entries[3]]), /^BAD: entry #3 \(seq 4,.*expected seq 3$/],
    ['the tail cut off', (b) => void b.entries.splice(6), /^BAD: truncated: a checkpoint signed at .* covers seq 7, but the entries end at seq 5$/],
    ['a forged signature', (b) => void (b.checkpoints[1].token = `${b.checkpoints[1].token.slice(0, -4)}AAAA`), /^BAD: checkpoint #1: signature does not verify$/],
    ['an unknown key', (b) => void (b.checkpoints[0].token = `${Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: 'other' })).toString('base64url')}.${b.checkpoints[0].token.split('.').slice(1).join('.')}`), /^BAD: checkpoint #0: kid other is not in the JWKS$/],
    ['another algorithm', (b) => void (b.checkpoints[0].token = `${Buffer.from(JSON.stringify({ alg: 'HS256', kid: KID })).toString('base64url')}.x.y`), /^BAD: checkpoint #0: unexpected alg HS256$/],
    ['not a JWS', (b) => void (b.checkpoints[0].token = 'nope'), /^BAD: checkpoint #0: not a compact JWS$/],
    ['another chain\'s checkpoint', async (b) => void (b.checkpoints[0] = await checkpoint(b.entries[3], 'access_log-acct_other')), /^BAD: checkpoint #0: signs access_log-acct_other, not access_log-acct_test$/],
    ['a checkpoint of another hash', async (b) => void (b.checkpoints[0] = await checkpoint({ ...b.entries[3], hash: 'f'.repeat(64) })), /^BAD: entry #3 .*differs from the checkpoint signed at/],
    ['an anchor that is not its signature', async (b) => {
      b.anchor = { seq: 1, hash: b.entries[1].hash, token: (await checkpoint(b.entries[2])).token };
      b.entries.splice(0, 2);
    }, /^BAD: the anchor does not match its signature$/],
    ['an unknown format', (b) => void (b.format = 'audit-bundle/9'), /^BAD: unknown bundle format audit-bundle\/9$/],
  ];

  it.each(spoilings)('agree on %s, naming it', async (_name, spoil, expected) => {
    const bundle = await goodBundle();
    await spoil(bundle);
    const { web: page, tool: node, cli } = await verdicts(bundle);
    expect(page).toMatch(expected);
    expect(node).toBe(page);
    expect(cli).toBe(page);
  });

  it('agree on an anchored bundle and on one whose newest entries are after the last checkpoint', async () => {
    const chain = entries(8);
    const anchored: Bundle = { format: 'audit-bundle/1', stream: STREAM, from: chain[4].at, to: null, anchor: { seq: 2, hash: chain[2].hash, token: (await checkpoint(chain[2])).token }, entries: chain.slice(3), checkpoints: [await checkpoint(chain[5])] };
    const first = await verdicts(anchored);
    expect(first.web).toBe('OK access_log-acct_test: 5 entries verified (4 in range), 2 signed checkpoints; the newest 2 entries are after the last checkpoint (truncation there is not detectable yet)');
    expect(first.tool).toBe(first.web);
    expect(first.cli).toBe(first.web);
  });

  it('says the same about a file that is not a bundle', async () => {
    const broken = await verdicts(null, Buffer.from('{"format": "audit-bundle/1", "entries": ['));
    expect(broken.web).toMatch(/^BAD: unreadable input: /);
    expect(broken.cli).toBe(broken.web);
  });

  it("checks a customer's copy: signed by the keys, the document the signature covers", async () => {
    const document = { format: 'customer-copy/1', account_id: 'acct_test', customer_id: 'cust-1', generated_at: '2026-12-01T09:00:00.000Z', consents: [{ type: 'ConsentGranted' }] };
    const copy = { document, kid: KID, jws: await sign(document, 'customer-copy') };
    expect(await web.verifyCustomerCopy(copy, jwks)).toMatchObject({ ok: true, customer_id: 'cust-1', kid: KID });
    expect(await web.verifyCustomerCopy({ ...copy, document: { ...document, consents: [] } }, jwks)).toEqual({ ok: false, error: 'the document differs from the one the signature covers (edited)' });
    expect(await web.verifyCustomerCopy({ ...copy, jws: await sign(document, 'audit-checkpoint') }, jwks)).toEqual({ ok: false, error: 'the signature is a audit-checkpoint, not a customer-copy' });
    expect(await web.verifyCustomerCopy({ ...copy, jws: `${copy.jws.slice(0, -4)}AAAA` }, jwks)).toEqual({ ok: false, error: "the copy's signature: signature does not verify" });
  });
});
