import { createHash, randomUUID } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { chainHash, GENESIS_HASH, type ApiAccessRecorded } from '../../../audit/src/index.js';
import type { EventStore } from '../../../platform/src/index.js';
import { checkpointsOf, type CheckpointWriter } from '../checkpoints/checkpoint-writer.js';
import { BUNDLE_FORMAT, type AuditBundle } from '../export/audit-bundle.js';
import { readChain } from '../replay/as-of-replay.js';

/**
 * Access-trail retention (docs/adr/0024, issue 30). For each access chain,
 * every calendar month (UTC) that ended before `now - liveWindow` and is
 * still live becomes one segment: an export bundle (ADR 23) from the previous
 * segment's closing head (or the genesis) to a checkpoint signed over the
 * month's last entry, gzipped, plus a manifest naming its SHA-256 and the
 * previous manifest's (a chain of manifests per stream). Both are written
 * once (a temporary file hard-linked into place: an existing name is never
 * rewritten). Then the entries are trimmed from the live store; the closing
 * checkpoint stays in `audit_checkpoints` as the live chain's new anchor.
 *
 * Every step can be repeated: a rerun after a kill at any point finds the
 * signed head, the bundle or the manifest already there and uses them, so the
 * month is finished without losing or doubling an entry.
 */
export const MANIFEST_FORMAT = 'audit-archive-manifest/1';

export interface ArchiveManifest {
  format: typeof MANIFEST_FORMAT;
  stream: string;
  month: string;
  file: string;
  sha256: string;
  bytes: number;
  entries: number;
  first_seq: number;
  last_seq: number;
  last_hash: string;
  /** SHA-256 of the previous segment's manifest file; null for the chain's first. */
  prev_manifest_sha256: string | null;
  archived_at: string;
}

export interface PlannedSegment {
  stream: string;
  month: string;
  first_seq: number;
  last_seq: number;
  entries: number;
}

export interface RetentionOptions {
  archiveDir: string;
  liveWindowMs: number;
  now: Date;
  dryRun?: boolean;
  /** Test hook: called after each durable step ('signed', 'bundle', 'manifest', 'trimmed'), where a kill is simulated or observed. */
  onStep?: (step: string, segment: PlannedSegment) => void;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const monthOf = (iso: string) => iso.slice(0, 7);
const monthStart = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
const nextMonth = (month: string) => {
  const [year, mon] = month.split('-').map(Number);
  return new Date(Date.UTC(year, mon, 1)).toISOString();
};

export function streamDir(archiveDir: string, stream: string): string {
  return path.join(archiveDir, 'audit', stream);
}

/** Writes a file once: a temporary file linked to its name; an existing name is left as it is (false). */
export function writeOnce(file: string, bytes: Buffer): boolean {
  if (existsSync(file)) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  writeFileSync(temporary, bytes, { flag: 'wx' });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/** The manifests of a chain, oldest month first. */
export function readManifests(archiveDir: string, stream: string): Array<{ manifest: ArchiveManifest; sha256: string; file: string }> {
  const dir = streamDir(archiveDir, stream);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.manifest.json'))
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(dir, name));
      return { manifest: JSON.parse(bytes.toString('utf8')) as ArchiveManifest, sha256: sha256(bytes), file: path.join(dir, name) };
    });
}

/** Streams with a folder in the archive. */
export function archivedStreams(archiveDir: string): string[] {
  const dir = path.join(archiveDir, 'audit');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith('access_log-')).sort() : [];
}

/** Archives and trims every closed month older than the live window of one chain; returns the segments (planned only, in a dry run). */
export async function archiveChain(events: EventStore, writer: Pick<CheckpointWriter, 'signEntry'>, stream: string, options: RetentionOptions): Promise<PlannedSegment[]> {
  const cutoff = monthStart(new Date(options.now.getTime() - options.liveWindowMs)).toISOString();
  const manifests = readManifests(options.archiveDir, stream);
  const archivedUpTo = manifests.at(-1)?.manifest.last_seq ?? -1;
  const live = await readChain(events, stream);
  // Months end on the last entry (in chain order) dated before the next month's start.
  const pending = live.filter((entry) => entry.seq > archivedUpTo);
  const segments: Array<{ plan: PlannedSegment; entries: Array<ApiAccessRecorded['data']> }> = [];
  for (const entry of pending) {
    if (entry.at >= cutoff) break;
    const month = monthOf(entry.at);
    const current = segments.at(-1);
    if (current && current.plan.month >= month) {
      current.entries.push(entry);
      current.plan.last_seq = entry.seq;
      current.plan.entries++;
    } else segments.push({ plan: { stream, month, first_seq: entry.seq, last_seq: entry.seq, entries: 1 }, entries: [entry] });
  }
  if (options.dryRun) return segments.map(({ plan }) => plan);

  let previous = manifests.at(-1);
  for (const { plan, entries } of segments) {
    const last = entries.at(-1)!;
    const closing = await writer.signEntry({ stream, seq: last.seq, hash: last.hash, entry_at: last.at });
    options.onStep?.('signed', plan);
    const dir = streamDir(options.archiveDir, stream);
    const file = `${plan.month}.bundle.json.gz`;
    const bundlePath = path.join(dir, file);
    if (!existsSync(bundlePath)) {
      const heads = await checkpointsOf(events, stream);
      const anchorHead = plan.first_seq === 0 ? undefined : heads.find((head) => head.seq === plan.first_seq - 1 && head.hash === entries[0].prev_hash);
      if (plan.first_seq > 0 && !anchorHead) throw new Error(`${stream} ${plan.month}: no signed head at seq ${plan.first_seq - 1} to anchor the segment`);
      const bundle: AuditBundle = {
        format: BUNDLE_FORMAT,
        stream,
        from: `${plan.month}-01T00:00:00.000Z`,
        to: nextMonth(plan.month),
        generated_at: options.now.toISOString(),
        genesis_hash: GENESIS_HASH,
        anchor: anchorHead ? { seq: anchorHead.seq, hash: anchorHead.hash, token: anchorHead.token } : null,
        entries,
        checkpoints: heads.filter((head) => head.seq >= plan.first_seq && head.seq <= plan.last_seq).map(({ kid, token }) => ({ kid, token })),
        in_range: entries.length,
      };
      if (!bundle.checkpoints.some(({ token }) => token === closing.token)) bundle.checkpoints.push({ kid: closing.kid, token: closing.token });
      writeOnce(bundlePath, gzipSync(Buffer.from(JSON.stringify(bundle))));
    }
    options.onStep?.('bundle', plan);
    const bytes = readFileSync(bundlePath);
    const manifest: ArchiveManifest = {
      format: MANIFEST_FORMAT,
      stream,
      month: plan.month,
      file,
      sha256: sha256(bytes),
      bytes: bytes.length,
      entries: plan.entries,
      first_seq: plan.first_seq,
      last_seq: plan.last_seq,
      last_hash: last.hash,
      prev_manifest_sha256: previous?.sha256 ?? null,
      archived_at: options.now.toISOString(),
    };
    const manifestPath = path.join(dir, `${plan.month}.manifest.json`);
    writeOnce(manifestPath, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    const written = readFileSync(manifestPath);
    previous = { manifest: JSON.parse(written.toString('utf8')) as ArchiveManifest, sha256: sha256(written), file: manifestPath };
    options.onStep?.('manifest', plan);
  }
  // Trim what the manifests cover (also what a killed run archived but did not trim yet).
  const covered = previous?.manifest.last_seq;
  if (covered !== undefined && (live[0]?.seq ?? Infinity) <= covered) {
    await events.truncateBefore(stream, BigInt(covered + 1));
    const plan = segments.at(-1)?.plan;
    if (plan) options.onStep?.('trimmed', plan);
  }
  return segments.map(({ plan }) => plan);
}

export type HistoryVerdict = { ok: true; archives: number; archived_entries: number; live_entries: number } | { ok: false; reason: string };

/**
 * The whole history of one chain, end to end: each manifest chains to the
 * previous one, each archive has the manifest's checksum and verifies as a
 * bundle (`verifyBundle`, the offline verifier's own function), consecutive
 * archives join (seq and hash), and the live chain continues from the last
 * archive's closing head. The first fault names its file.
 */
export function verifyHistory(
  archiveDir: string,
  stream: string,
  live: ReadonlyArray<ApiAccessRecorded['data']>,
  jwks: { keys: Array<Record<string, unknown>> },
  verifyBundle: (bundle: unknown, jwks: unknown) => { ok: boolean; error?: string; unanchored_tail?: number },
): HistoryVerdict {
  let prevManifest: string | null = null;
  let nextSeq = 0;
  let prevHash = GENESIS_HASH;
  let archived = 0;
  const manifests = readManifests(archiveDir, stream);
  for (const { manifest, sha256: manifestSha, file } of manifests) {
    if (manifest.prev_manifest_sha256 !== prevManifest) return { ok: false, reason: `${file}: does not chain to the previous manifest` };
    const bundlePath = path.join(path.dirname(file), manifest.file);
    let bytes: Buffer;
    try {
      bytes = readFileSync(bundlePath);
    } catch {
      return { ok: false, reason: `${bundlePath}: missing` };
    }
    if (sha256(bytes) !== manifest.sha256) return { ok: false, reason: `${bundlePath}: checksum differs from its manifest (the archive was altered)` };
    let bundle: AuditBundle;
    try {
      bundle = JSON.parse(gunzipSync(bytes).toString('utf8')) as AuditBundle;
    } catch (error) {
      return { ok: false, reason: `${bundlePath}: unreadable (${error instanceof Error ? error.message : String(error)})` };
    }
    const verdict = verifyBundle(bundle, jwks);
    if (!verdict.ok) return { ok: false, reason: `${bundlePath}: ${verdict.error}` };
    if (verdict.unanchored_tail) return { ok: false, reason: `${bundlePath}: does not end on a signed head` };
    const first = bundle.entries[0];
    const last = bundle.entries.at(-1);
    if (!first || !last || first.seq !== nextSeq || first.prev_hash !== prevHash) return { ok: false, reason: `${bundlePath}: does not continue the previous archive (expected seq ${nextSeq})` };
    if (last.seq !== manifest.last_seq || last.hash !== manifest.last_hash) return { ok: false, reason: `${bundlePath}: ends elsewhere than its manifest says` };
    archived += bundle.entries.length;
    nextSeq = last.seq + 1;
    prevHash = last.hash;
    prevManifest = manifestSha;
  }
  const rest = live.filter((entry) => entry.seq >= nextSeq);
  if (live.length > 0 && live[0].seq > nextSeq) return { ok: false, reason: `${stream}: the live chain starts at seq ${live[0].seq}, the archives end at seq ${nextSeq - 1}` };
  const liveVerdict = verifyLive(rest, nextSeq, prevHash);
  if (!liveVerdict.ok) return liveVerdict;
  return { ok: true, archives: manifests.length, archived_entries: archived, live_entries: rest.length };
}

/** The live chain from `fromSeq`, linked to `fromHash` (the genesis, or the last archived entry). */
export function verifyLive(entries: ReadonlyArray<ApiAccessRecorded['data']>, fromSeq: number, fromHash: string): { ok: true } | { ok: false; reason: string } {
  let prev = fromHash;
  for (const [index, entry] of entries.entries()) {
    const { seq, prev_hash, hash, ...content } = entry;
    if (seq !== fromSeq + index) return { ok: false, reason: `live chain: sequence gap at seq ${seq} (expected ${fromSeq + index})` };
    if (prev_hash !== prev) return { ok: false, reason: `live chain: seq ${seq} does not link to the entry before it` };
    if (chainHash(prev_hash, seq, content) !== hash) return { ok: false, reason: `live chain: seq ${seq} hash mismatch (the entry was edited)` };
    prev = hash;
  }
  return { ok: true };
}
