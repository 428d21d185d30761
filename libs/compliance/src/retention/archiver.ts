import { createHash, randomUUID } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { AuditTrail, ChainEntry } from '../../../audit/src/index.js';
import type { EventStore } from '../../../platform/src/index.js';
import { checkpointsOf, type CheckpointWriter } from '../checkpoints/checkpoint-writer.js';
import { BUNDLE_FORMAT, MAX_BUNDLE_ENTRIES, type AuditBundle } from '../export/audit-bundle.js';

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
  /** 1 for a month's first segment; a month holding more than `maxSegmentEntries`, or entries dated in it that arrived after it was archived, continues in part 2, 3, … */
  part?: number;
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
  part: number;
  first_seq: number;
  last_seq: number;
  entries: number;
}

/** The durable steps of one segment, in order; a kill after any of them is finished by the next run. */
export const RETENTION_STEPS = ['signed', 'bundle-temp', 'bundle', 'manifest', 'trimmed'] as const;
export type RetentionStep = (typeof RETENTION_STEPS)[number];

export interface RetentionOptions {
  archiveDir: string;
  liveWindowMs: number;
  now: Date;
  dryRun?: boolean;
  /** Entries one segment holds at most (a busy chain's month is archived in parts); default MAX_BUNDLE_ENTRIES, as an export. */
  maxSegmentEntries?: number;
  /** Called after each durable step: progress in the worker's log, a stop or a kill in tests. */
  onStep?: (step: RetentionStep, segment: PlannedSegment) => void | Promise<void>;
}

/** Entries read from the store at once while a segment is gathered. */
const READ_PAGE = 5000;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const monthOf = (iso: string) => iso.slice(0, 7);
const monthStart = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
const nextMonth = (month: string) => {
  const [year, mon] = month.split('-').map(Number);
  return new Date(Date.UTC(year, mon, 1)).toISOString();
};
/** `2026-01` for part 1 (the layout of docs/adr/0024), `2026-01.p0002` after it: names sort in chain order. */
const segmentName = (month: string, part: number) => (part === 1 ? month : `${month}.p${String(part).padStart(4, '0')}`);

export function streamDir(archiveDir: string, stream: string): string {
  return path.join(archiveDir, 'audit', stream);
}

/**
 * Writes a file once: a temporary file linked to its name; an existing name is
 * left as it is (false). `written` runs between the two (a test's kill point:
 * the temporary file is all a killed run leaves, and readers ignore it).
 */
export async function writeOnce(file: string, bytes: Buffer, written?: () => void | Promise<void>): Promise<boolean> {
  if (existsSync(file)) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  writeFileSync(temporary, bytes, { flag: 'wx' });
  try {
    await written?.();
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/** The manifests of a chain, in chain order (oldest month and part first). */
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

/** Chains with a folder in the archive (`isChain`: the AuditTrail's test of a chain id). */
export function archivedStreams(archiveDir: string, isChain: (id: string) => boolean): string[] {
  const dir = path.join(archiveDir, 'audit');
  return existsSync(dir) ? readdirSync(dir).filter(isChain).sort() : [];
}

type Entry = ChainEntry;
interface ArchivedUpTo {
  seq: number;
  month: string | null;
  part: number;
}

/**
 * The next segment after `done`: entries in chain order from the one after
 * the last archived, each in the month it is dated or the segment's month if
 * later (months never go back along a chain, so an entry written late, dated
 * in an archived month, joins a new part of it instead of rewriting it); it
 * ends where the month changes, at `max` entries, or at the chain's end.
 * Null when the next entry's month has not ended before `cutoff`.
 */
async function nextSegment(trail: Pick<AuditTrail, 'entries'>, stream: string, done: ArchivedUpTo, cutoff: string, max: number): Promise<{ plan: PlannedSegment; entries: Entry[] } | null> {
  const entries: Entry[] = [];
  let month: string | null = null;
  for (let from = done.seq + 1; ; ) {
    const page = await trail.entries(stream, from, Math.min(READ_PAGE, max + 1));
    for (const entry of page) {
      if (entry.seq <= done.seq) continue;
      const floor: string = month ?? done.month ?? '';
      const label = monthOf(entry.at) > floor ? monthOf(entry.at) : floor;
      if (month === null && `${label}-01T00:00:00.000Z` >= cutoff) return null;
      month ??= label;
      if (label !== month || entries.length === max) return segmentOf(stream, month, done, entries);
      entries.push(entry);
    }
    if (page.length < Math.min(READ_PAGE, max + 1)) return month === null ? null : segmentOf(stream, month, done, entries);
    from = page.at(-1)!.seq + 1;
  }
}

function segmentOf(stream: string, month: string, done: ArchivedUpTo, entries: Entry[]): { plan: PlannedSegment; entries: Entry[] } {
  const part = done.month === month ? done.part + 1 : 1;
  return { plan: { stream, month, part, first_seq: entries[0].seq, last_seq: entries.at(-1)!.seq, entries: entries.length }, entries };
}

/**
 * Archives and trims every closed month older than the live window of one
 * chain; returns the segments archived (planned only, in a dry run). Each
 * segment: (1) a checkpoint signed over its last entry; (2) the bundle,
 * written once; (3) its manifest, written once; (4) the live store drops it,
 * except the chain's newest entry, which stays as the head the recorder links
 * the next entry to (a dormant account's chain is archived whole). A bundle
 * found already written (a killed run) is the segment, whatever the live
 * store now holds after it; its manifest is derived from it. `events` holds
 * the checkpoints (compliance's own stream); the chain is read and trimmed
 * through the audit context's AuditTrail.
 */
export async function archiveChain(events: EventStore, trail: ArchiveTrail, writer: Pick<CheckpointWriter, 'signEntry'>, stream: string, options: RetentionOptions): Promise<PlannedSegment[]> {
  const cutoff = monthStart(new Date(options.now.getTime() - options.liveWindowMs)).toISOString();
  const max = options.maxSegmentEntries ?? MAX_BUNDLE_ENTRIES;
  const dir = streamDir(options.archiveDir, stream);
  let previous = readManifests(options.archiveDir, stream).at(-1);
  const done: ArchivedUpTo = { seq: previous?.manifest.last_seq ?? -1, month: previous?.manifest.month ?? null, part: previous?.manifest.part ?? 1 };
  const archived: PlannedSegment[] = [];
  if (!options.dryRun) {
    // What a killed run left: temporary files (never a name a reader opens), and a month archived but not trimmed.
    if (existsSync(dir)) for (const name of readdirSync(dir)) if (name.endsWith('.tmp')) rmSync(path.join(dir, name), { force: true });
    if (previous) await trail.trim(stream, previous.manifest.last_seq);
  }
  for (;;) {
    const next = await nextSegment(trail, stream, done, cutoff, max);
    if (!next) return archived;
    let { plan, entries } = next;
    if (options.dryRun) {
      archived.push(plan);
      Object.assign(done, { seq: plan.last_seq, month: plan.month, part: plan.part });
      continue;
    }
    const name = segmentName(plan.month, plan.part);
    const file = `${name}.bundle.json.gz`;
    const bundlePath = path.join(dir, file);
    if (existsSync(bundlePath)) {
      // Written by a run killed before its manifest: that bundle is the segment.
      const written = JSON.parse(gunzipSync(readFileSync(bundlePath)).toString('utf8')) as AuditBundle;
      entries = written.entries;
      if (entries[0]?.seq !== done.seq + 1) throw new Error(`${bundlePath}: starts at seq ${entries[0]?.seq}, the archive ends at seq ${done.seq}`);
      plan = { ...plan, last_seq: entries.at(-1)!.seq, entries: entries.length };
    } else {
      const last = entries.at(-1)!;
      const closing = await writer.signEntry({ stream, seq: last.seq, hash: last.hash, entry_at: last.at });
      await options.onStep?.('signed', plan);
      const heads = await checkpointsOf(events, stream);
      const anchorHead = plan.first_seq === 0 ? undefined : heads.find((head) => head.seq === plan.first_seq - 1 && head.hash === entries[0].prev_hash);
      if (plan.first_seq > 0 && !anchorHead) throw new Error(`${stream} ${name}: no signed head at seq ${plan.first_seq - 1} to anchor the segment`);
      const bundle: AuditBundle = {
        format: BUNDLE_FORMAT,
        stream,
        from: `${plan.month}-01T00:00:00.000Z`,
        to: nextMonth(plan.month),
        generated_at: options.now.toISOString(),
        genesis_hash: trail.genesis,
        anchor: anchorHead ? { seq: anchorHead.seq, hash: anchorHead.hash, token: anchorHead.token } : null,
        entries,
        checkpoints: heads.filter((head) => head.seq >= plan.first_seq && head.seq <= plan.last_seq).map(({ kid, token }) => ({ kid, token })),
        in_range: entries.length,
      };
      if (!bundle.checkpoints.some(({ token }) => token === closing.token)) bundle.checkpoints.push({ kid: closing.kid, token: closing.token });
      await writeOnce(bundlePath, gzipSync(Buffer.from(JSON.stringify(bundle))), () => options.onStep?.('bundle-temp', plan));
    }
    await options.onStep?.('bundle', plan);
    const bytes = readFileSync(bundlePath);
    const last = entries.at(-1)!;
    const manifest: ArchiveManifest = {
      format: MANIFEST_FORMAT,
      stream,
      month: plan.month,
      part: plan.part,
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
    const manifestPath = path.join(dir, `${name}.manifest.json`);
    await writeOnce(manifestPath, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    const stored = readFileSync(manifestPath);
    previous = { manifest: JSON.parse(stored.toString('utf8')) as ArchiveManifest, sha256: sha256(stored), file: manifestPath };
    await options.onStep?.('manifest', plan);
    await trail.trim(stream, plan.last_seq);
    await options.onStep?.('trimmed', plan);
    archived.push(plan);
    Object.assign(done, { seq: plan.last_seq, month: plan.month, part: plan.part });
  }
}

/** What archiving needs of the audit context's AuditTrail: read a chain, trim it (its newest entry stays), and the genesis a bundle names. */
export type ArchiveTrail = Pick<AuditTrail, 'entries' | 'trim' | 'genesis'>;

export type HistoryVerdict = { ok: true; archives: number; archived_entries: number; live_entries: number } | { ok: false; reason: string };

/**
 * The whole history of one chain, end to end: each manifest chains to the
 * previous one, each archive has the manifest's checksum and verifies as a
 * bundle (`verifyBundle`, the offline verifier's own function), consecutive
 * archives join (seq and hash), and the live chain continues from the last
 * archive's closing head. The first fault names its file.
 */
export function verifyHistory(
  trail: Pick<AuditTrail, 'verify' | 'genesis'>,
  archiveDir: string,
  stream: string,
  live: ReadonlyArray<ChainEntry>,
  jwks: { keys: readonly object[] },
  verifyBundle: (bundle: unknown, jwks: unknown) => { ok: boolean; error?: string; unanchored_tail?: number },
): HistoryVerdict {
  let prevManifest: string | null = null;
  let nextSeq = 0;
  let prevHash = trail.genesis;
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
  const liveVerdict = verifyLive(trail, rest, nextSeq, prevHash);
  if (!liveVerdict.ok) return liveVerdict;
  return { ok: true, archives: manifests.length, archived_entries: archived, live_entries: rest.length };
}

/** The live chain from `fromSeq`, linked to `fromHash` (the genesis, or the last archived entry), checked by the AuditTrail. */
export function verifyLive(trail: Pick<AuditTrail, 'verify'>, entries: ReadonlyArray<ChainEntry>, fromSeq: number, fromHash: string): { ok: true } | { ok: false; reason: string } {
  const verdict = trail.verify(entries, { seq: fromSeq, prevHash: fromHash });
  if (verdict.ok) return { ok: true };
  const { seq } = verdict;
  if (verdict.fault === 'gap') return { ok: false, reason: `live chain: sequence gap at seq ${seq} (expected ${verdict.expectedSeq})` };
  if (verdict.fault === 'link') return { ok: false, reason: `live chain: seq ${seq} does not link to the entry before it` };
  return { ok: false, reason: `live chain: seq ${seq} hash mismatch (the entry was edited)` };
}
