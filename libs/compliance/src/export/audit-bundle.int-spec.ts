import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { auditEventTypes, link, type AccessEntry, type AuditTrail } from '../../../audit/src/index.js';
import { accessRecorderOver, auditTrailOver } from '../../../audit/src/public/testing/audit-trail.js';
import { EmbeddedEventStore, EventRegistry, type Clock, type EventStore } from '../../../platform/src/index.js';
import { CheckpointWriter, checkpointsOf } from '../checkpoints/checkpoint-writer.js';
import { fixedSigningKeys } from '../checkpoints/testing/fixed-signing-keys.js';
import { verifyCheckpoints } from '../checkpoints/verify-checkpoints.js';
import { complianceEventTypes } from '../event-types.js';
import { buildBundle, type AuditBundle } from './audit-bundle.js';

const VERIFIER = fileURLToPath(new URL('../../../../tools/verify-audit-bundle.mjs', import.meta.url));
const run = promisify(execFile);

describe('signed checkpoints and export bundles, checked by tools/verify-audit-bundle.mjs', () => {
  let events: EventStore;
  let trail: AuditTrail;
  let dir: string;
  const registry = new EventRegistry().register(...auditEventTypes, ...complianceEventTypes);
  const keys = fixedSigningKeys('k1');
  const { jwks } = keys;
  let instant = new Date('2026-03-01T00:00:00Z');
  const clock: Clock = { now: () => new Date(instant) };
  const stream = 'access_log-acct_bundle';
  const entryAt = (index: number) => new Date(Date.UTC(2026, 2, 1, index)).toISOString();
  const entry = (index: number, account = 'acct_bundle'): AccessEntry => ({
    account_id: account,
    key_prefix: 'lnd_abcd…',
    principal_kind: 'account',
    method: 'GET',
    path: `/v2/banking/audit-log?n=${index}`,
    status: 200,
    client_ip: '203.0.113.7',
    at: entryAt(index),
    request_id: `req-${index}`,
  });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'bundle-'));
    events = await EmbeddedEventStore.open(path.join(dir, 'store'));
    trail = auditTrailOver(events);
    expect(trail.chainOf('acct_bundle')).toBe(stream);
    writeFileSync(path.join(dir, 'jwks.json'), JSON.stringify(jwks));
    const recorder = accessRecorderOver(events, registry);
    const writer = new CheckpointWriter(events, registry, trail, keys, clock);
    for (let index = 0; index < 5; index++) await recorder.record(entry(index));
    await recorder.record(entry(0, 'acct_elsewhere'));
    instant = new Date('2026-03-01T05:30:00Z');
    expect((await writer.round())?.heads.map((head) => [head.stream, head.seq])).toEqual([
      ['access_log-acct_bundle', 4],
      ['access_log-acct_elsewhere', 0],
    ]);
    for (let index = 5; index < 10; index++) await recorder.record(entry(index));
    instant = new Date('2026-03-01T10:30:00Z');
    // Only the chain that moved is signed again.
    expect((await writer.round())?.heads.map((head) => [head.stream, head.seq])).toEqual([['access_log-acct_bundle', 9]]);
    expect(await writer.round()).toBeNull();
    for (let index = 10; index < 12; index++) await recorder.record(entry(index));
  });
  afterAll(() => events.close());

  async function verifyWithScript(bundle: AuditBundle, name: string): Promise<{ code: number; out: string }> {
    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(bundle));
    try {
      const { stdout } = await run(process.execPath, [VERIFIER, file, path.join(dir, 'jwks.json')]);
      return { code: 0, out: stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string };
      return { code: failed.code, out: failed.stdout };
    }
  }

  const bundleOf = (range: { from?: string; to?: string }) => buildBundle(events, trail, clock, stream, range);
  const clone = (bundle: AuditBundle): AuditBundle => JSON.parse(JSON.stringify(bundle)) as AuditBundle;

  it('a bundle runs from the signed head before the range to the signed head after it', async () => {
    const bundle = await bundleOf({ from: entryAt(6), to: entryAt(8) });
    expect(bundle.anchor).toMatchObject({ seq: 4 });
    expect(bundle.entries.map((e) => e.seq)).toEqual([5, 6, 7, 8, 9]);
    expect(bundle.in_range).toBe(2);
    expect(bundle.checkpoints).toHaveLength(1);
    expect(await verifyWithScript(bundle, 'range')).toEqual({ code: 0, out: expect.stringMatching(/^OK access_log-acct_bundle: 5 entries verified \(2 in range\), 2 signed checkpoints/) });
  });

  it('an intact bundle of the whole trail verifies, and says which newest entries no checkpoint covers yet', async () => {
    const result = await verifyWithScript(await bundleOf({}), 'whole');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/12 entries verified .* newest 2 entries are after the last checkpoint/);
  });

  it('an edited entry is named', async () => {
    const bundle = clone(await bundleOf({ to: entryAt(10) }));
    bundle.entries[3].status = 500;
    expect(await verifyWithScript(bundle, 'edited')).toEqual({ code: 1, out: expect.stringContaining('entry #3 (seq 3, request req-3') });
    expect((await verifyWithScript(bundle, 'edited')).out).toContain('edited');
  });

  it('a removed entry is detected at the entry after it', async () => {
    const bundle = clone(await bundleOf({ to: entryAt(10) }));
    bundle.entries.splice(6, 1);
    expect(await verifyWithScript(bundle, 'removed')).toEqual({ code: 1, out: expect.stringContaining('seq 7') });
  });

  it('a reordered pair is detected', async () => {
    const bundle = clone(await bundleOf({ to: entryAt(10) }));
    [bundle.entries[2], bundle.entries[3]] = [bundle.entries[3], bundle.entries[2]];
    expect(await verifyWithScript(bundle, 'reordered')).toEqual({ code: 1, out: expect.stringContaining('entry #2 (seq 3') });
  });

  it('a truncated tail is detected against the checkpoint that covers it', async () => {
    const bundle = clone(await bundleOf({ to: entryAt(10) }));
    bundle.entries.splice(-2);
    expect(await verifyWithScript(bundle, 'truncated')).toEqual({ code: 1, out: expect.stringContaining('truncated: a checkpoint signed at 2026-03-01T10:30:00.000Z covers seq 9, but the entries end at seq 7') });
  });

  it('an entry rewritten with every later hash recomputed fails against the signed head; a tampered signature fails', async () => {
    const bundle = clone(await bundleOf({ to: entryAt(10) }));
    const rewritten = bundle.entries.map(({ seq: _seq, prev_hash: _prev, hash: _hash, ...content }, index) => (index === 3 ? { ...content, status: 500 } : content));
    bundle.entries = link(rewritten, { prevHash: trail.genesis, seq: -1 }).map((event) => event.data);
    expect(await verifyWithScript(bundle, 'rewritten')).toEqual({ code: 1, out: expect.stringContaining('differs from the checkpoint signed at 2026-03-01T05:30:00.000Z') });
    const signed = clone(await bundleOf({ to: entryAt(10) }));
    const [header, payload, signature] = signed.checkpoints[0].token.split('.');
    signed.checkpoints[0].token = `${header}.${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(await verifyWithScript(signed, 'bad-signature')).toEqual({ code: 1, out: expect.stringContaining('signature does not verify') });
  });

  it('audit:verify: a chain truncated before its latest checkpoint fails, an intact one passes', async () => {
    const chain = await trail.entries(stream);
    const heads = await checkpointsOf(events, stream);
    expect(verifyCheckpoints(stream, chain, heads, jwks.keys)).toEqual({ ok: true, checkpoints: 2, covered: 9 });
    expect(verifyCheckpoints(stream, chain.slice(0, 8), heads, jwks.keys)).toEqual({ ok: false, reason: expect.stringContaining('truncated') });
  });
});
