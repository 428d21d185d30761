import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { auditEventTypes, type AccessEntry, type AuditTrail } from '../../../audit/src/index.js';
import { accessRecorderOver, auditTrailOver } from '../../../audit/src/public/testing/audit-trail.js';
import { EmbeddedEventStore, EventRegistry, type Clock, type EventStore } from '../../../platform/src/index.js';
import { CheckpointWriter } from '../checkpoints/checkpoint-writer.js';
import { fixedSigningKeys } from '../checkpoints/testing/fixed-signing-keys.js';
import { complianceEventTypes } from '../event-types.js';
import { buildBundle } from '../export/audit-bundle.js';
import { archiveChain, readManifests, streamDir, verifyHistory, type RetentionOptions } from './archiver.js';

const VERIFIER = fileURLToPath(new URL('../../../../tools/verify-audit-bundle.mjs', import.meta.url));
const run = promisify(execFile);
const DAY = 86_400_000;

/**
 * Retention (issue 30, docs/adr/0024): closed months older than the live
 * window go to write-once gzipped bundles with a chained manifest, the live
 * store is trimmed, and the history verifies across the boundary; a run
 * stopped after any step is finished by the next without losing or doubling
 * an entry.
 */
describe('access-trail retention: archive, trim, verify the whole history', () => {
  const registry = new EventRegistry().register(...auditEventTypes, ...complianceEventTypes);
  const keys = fixedSigningKeys('k1');
  const { jwks } = keys;
  const clock: Clock = { now: () => new Date('2026-06-01T00:00:00Z') };
  const stream = 'access_log-acct_keep';
  let verifyBundle: Parameters<typeof verifyHistory>[5];

  const entry = (at: string, index: number): AccessEntry => ({
    account_id: 'acct_keep',
    key_prefix: 'lnd_abcd…',
    principal_kind: 'account',
    method: 'GET',
    path: `/v2/reverse?lat=5.6&lng=-0.18&n=${index}`,
    status: 200,
    client_ip: '203.0.113.7',
    at,
    request_id: `req-${index}`,
  });

  /** A store with entries in January, February and March 2026 (4 each). */
  async function fixture(): Promise<{ events: EventStore; trail: AuditTrail; dir: string; writer: CheckpointWriter }> {
    const dir = mkdtempSync(path.join(tmpdir(), 'retention-'));
    const events = await EmbeddedEventStore.open(path.join(dir, 'store'));
    const trail = auditTrailOver(events);
    expect(trail.chainOf('acct_keep')).toBe(stream);
    const recorder = accessRecorderOver(events, registry);
    let index = 0;
    for (const month of [1, 2, 3]) for (let day = 1; day <= 4; day++) await recorder.record(entry(new Date(Date.UTC(2026, month - 1, day * 5)).toISOString(), index++));
    return { events, trail, dir, writer: new CheckpointWriter(events, registry, trail, keys, clock) };
  }
  // "Now" is 2026-04-10 with a 30-day window: January and February are closed and older; March stays live.
  const options = (dir: string, extra: Partial<RetentionOptions> = {}): RetentionOptions => ({ archiveDir: path.join(dir, 'archive'), liveWindowMs: 30 * DAY, now: new Date('2026-04-10T00:00:00Z'), ...extra });

  beforeAll(async () => {
    ({ verifyBundle } = (await import(pathToFileURL(VERIFIER).href)) as { verifyBundle: typeof verifyBundle });
  });

  it('archives the closed months, trims them, and the history (archives + live) verifies end to end', async () => {
    const { events, trail, dir, writer } = await fixture();
    try {
      expect(await archiveChain(events, trail, writer, stream, options(dir, { dryRun: true }))).toEqual([
        { stream, month: '2026-01', part: 1, first_seq: 0, last_seq: 3, entries: 4 },
        { stream, month: '2026-02', part: 1, first_seq: 4, last_seq: 7, entries: 4 },
      ]);
      expect((await trail.entries(stream)).length).toBe(12);
      await archiveChain(events, trail, writer, stream, options(dir));
      // Trimmed: the live chain starts after February's closing head.
      const live = await trail.entries(stream);
      expect(live.map((e) => e.seq)).toEqual([8, 9, 10, 11]);
      const manifests = readManifests(options(dir).archiveDir, stream);
      expect(manifests.map(({ manifest }) => [manifest.month, manifest.first_seq, manifest.last_seq])).toEqual([
        ['2026-01', 0, 3],
        ['2026-02', 4, 7],
      ]);
      expect(manifests[1].manifest.prev_manifest_sha256).toBe(manifests[0].sha256);
      expect(verifyHistory(trail, options(dir).archiveDir, stream, live, jwks, verifyBundle)).toEqual({ ok: true, archives: 2, archived_entries: 8, live_entries: 4 });
      // Each archive is checked by the offline verifier as it is (gzipped), with the JWKS alone.
      writeFileSync(path.join(dir, 'jwks.json'), JSON.stringify(jwks));
      const { stdout } = await run(process.execPath, [VERIFIER, path.join(streamDir(options(dir).archiveDir, stream), '2026-02.bundle.json.gz'), path.join(dir, 'jwks.json')]);
      expect(stdout).toMatch(/^OK access_log-acct_keep: 4 entries verified .*signed to its last entry/);
      // An export of the live part is anchored on the archive's closing head.
      expect(verifyBundle(await buildBundle(events, trail, clock, stream, {}), jwks)).toMatchObject({ ok: true, entries: 4 });
      // A second run finds nothing more to do.
      expect(await archiveChain(events, trail, writer, stream, options(dir))).toEqual([]);
    } finally {
      await events.close();
    }
  });

  it('names a tampered archive', async () => {
    const { events, trail, dir, writer } = await fixture();
    try {
      await archiveChain(events, trail, writer, stream, options(dir));
      const file = path.join(streamDir(options(dir).archiveDir, stream), '2026-01.bundle.json.gz');
      const bundle = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { entries: Array<{ status: number }> };
      bundle.entries[2].status = 500;
      writeFileSync(file, gzipSync(Buffer.from(JSON.stringify(bundle))));
      const verdict = verifyHistory(trail, options(dir).archiveDir, stream, await trail.entries(stream), jwks, verifyBundle);
      expect(verdict).toEqual({ ok: false, reason: expect.stringContaining('2026-01.bundle.json.gz: checksum differs from its manifest') });
    } finally {
      await events.close();
    }
  });

  it('archives a dormant chain whole but keeps its newest entry live, so the recorder links the next one and everything verifies', async () => {
    const { events, trail, dir, writer } = await fixture();
    try {
      // "Now" is far past March: every month is closed.
      await archiveChain(events, trail, writer, stream, options(dir, { now: new Date('2026-08-01T00:00:00Z') }));
      expect((await trail.entries(stream)).map((e) => e.seq)).toEqual([11]);
      const recorder = accessRecorderOver(events, registry);
      await recorder.record(entry('2026-08-02T00:00:00.000Z', 12));
      const live = await trail.entries(stream);
      expect(live.map((e) => e.seq)).toEqual([11, 12]);
      expect(verifyHistory(trail, options(dir).archiveDir, stream, live, jwks, verifyBundle)).toEqual({ ok: true, archives: 3, archived_entries: 12, live_entries: 1 });
      // The export of the live part is anchored on the kept entry's signed head.
      await writer.signHead(stream);
      expect(verifyBundle(await buildBundle(events, trail, clock, stream, {}), jwks)).toMatchObject({ ok: true, entries: 1, unanchored_tail: 0 });
    } finally {
      await events.close();
    }
  });

  it('cuts a busy month into parts, and an entry dated in an archived month that arrives late goes to a new part, never into a written file', async () => {
    const { events, trail, dir, writer } = await fixture();
    try {
      const recorder = accessRecorderOver(events, registry);
      const segments = await archiveChain(events, trail, writer, stream, options(dir, { maxSegmentEntries: 3 }));
      expect(segments.map((s) => [s.month, s.part, s.first_seq, s.last_seq])).toEqual([
        ['2026-01', 1, 0, 2],
        ['2026-01', 2, 3, 3],
        ['2026-02', 1, 4, 6],
        ['2026-02', 2, 7, 7],
      ]);
      // Written late (a stopped process's journal), dated in February.
      await recorder.record(entry('2026-02-27T00:00:00.000Z', 12));
      const late = await archiveChain(events, trail, writer, stream, options(dir, { now: new Date('2026-05-10T00:00:00Z') }));
      // March is closed now; the late entry is chained after it, so it joins March's segment (months never go back along a chain).
      expect(late.map((s) => [s.month, s.part, s.first_seq, s.last_seq])).toEqual([['2026-03', 1, 8, 12]]);
      const names = readManifests(options(dir).archiveDir, stream).map(({ manifest }) => manifest.file);
      expect(names).toEqual(['2026-01.bundle.json.gz', '2026-01.p0002.bundle.json.gz', '2026-02.bundle.json.gz', '2026-02.p0002.bundle.json.gz', '2026-03.bundle.json.gz']);
      await recorder.record(entry('2026-01-30T00:00:00.000Z', 13));
      await recorder.record(entry('2026-06-01T00:00:00.000Z', 14));
      const again = await archiveChain(events, trail, writer, stream, options(dir, { now: new Date('2026-05-10T00:00:00Z') }));
      // Dated in January, after March was archived: March part 2, a new file.
      expect(again.map((s) => [s.month, s.part, s.first_seq, s.last_seq])).toEqual([['2026-03', 2, 13, 13]]);
      expect(verifyHistory(trail, options(dir).archiveDir, stream, await trail.entries(stream), jwks, verifyBundle)).toEqual({ ok: true, archives: 6, archived_entries: 14, live_entries: 1 });
    } finally {
      await events.close();
    }
  });

  it.each(['signed', 'bundle-temp', 'bundle', 'manifest', 'trimmed'])('stopped after "%s", a rerun finishes without losing or doubling an entry', async (step) => {
    const { events, trail, dir, writer } = await fixture();
    try {
      const stop = (at: string) => {
        if (at === step) throw new Error(`stopped after ${at}`);
      };
      await expect(archiveChain(events, trail, writer, stream, options(dir, { onStep: stop }))).rejects.toThrow(`stopped after ${step}`);
      await archiveChain(events, trail, writer, stream, options(dir));
      const live = await trail.entries(stream);
      const manifests = readManifests(options(dir).archiveDir, stream);
      const archivedSeqs = manifests.flatMap(({ manifest }) => Array.from({ length: manifest.entries }, (_, i) => manifest.first_seq + i));
      expect([...archivedSeqs, ...live.map((e) => e.seq)]).toEqual(Array.from({ length: 12 }, (_, i) => i));
      expect(verifyHistory(trail, options(dir).archiveDir, stream, live, jwks, verifyBundle)).toMatchObject({ ok: true, archived_entries: 8, live_entries: 4 });
    } finally {
      await events.close();
    }
  });
});
