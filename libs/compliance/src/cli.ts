import type { AuditTrail, ChainCheck, ChainEntry } from '../../audit/src/index.js';
import type { Jwks } from '../../identity/src/index.js';
import { progressBar, systemClock, UsageError, type OperatorCommand, type OperatorRuntime } from '../../platform/src/index.js';
import { checkpointsByStream, CheckpointWriter } from './checkpoints/checkpoint-writer.js';
import { liveAnchor } from './checkpoints/live-anchor.js';
import { verifyCheckpoints } from './checkpoints/verify-checkpoints.js';
import { buildBundle } from './export/audit-bundle.js';
import { withAuditPorts, type AuditPorts } from './operator-ports.js';
import { archivedStreams, readManifests, verifyHistory, verifyLive } from './retention/archiver.js';
import { RetentionLease } from './retention/retention-lease.js';
import { killAtStep, runRetention } from './retention/retention-run.js';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AsOfRegistry, replayAsOf } from './replay/as-of-replay.js';

/** The operator's audit commands: the access chains with their signed checkpoints, as-of replay, export bundles (docs/adr/0023). */
export const complianceCli: Readonly<Record<string, OperatorCommand>> = {
  'audit:verify': { usage: 'audit:verify [STREAM]   (default: every access_log-* chain; its signed checkpoints too)', run: verifyAudit },
  'audit:replay': { usage: 'audit:replay ACCOUNT_ID --at ISO   (the account as it stood then: docs/adr/0023)', run: replayAccount },
  'audit:archive': { usage: 'audit:archive [--dry-run] [--now ISO]   (archive each closed month older than AUDIT_LIVE_WINDOW_S into ARCHIVE_DIR, then trim it, under the worker\'s lease: docs/adr/0024)', run: archiveAudit },
  'audit:archives': { usage: 'audit:archives   (the archived months of every chain, with their checksums)', run: listArchives },
  'audit:history': { usage: 'audit:history [STREAM]   (archives and live chain end to end; the first bad file is named)', run: verifyAuditHistory },
  'audit:export': { usage: 'audit:export ACCOUNT_ID|platform [--from ISO] [--to ISO]   (a bundle for tools/verify-audit-bundle.mjs, on stdout)', run: exportBundle },
};

/**
 * The embedded store's access entries reach the event store through a journal
 * (ADR 0004): the AuditTrail stores what a stopped api process left in it
 * before the chains are read. A running api process holds it and stores its
 * entries within ~25 ms.
 */
async function settle(trail: AuditTrail): Promise<void> {
  if ((await trail.settle()) === 'held') process.stderr.write('note: the service is running; access entries answered in the last ~25 ms may not be in the chains yet\n');
}

function verifyAudit(runtime: OperatorRuntime, args: string[]): Promise<number> {
  return withAuditPorts(runtime, { sign: false }, async ({ trail, keys }) => {
    await settle(trail);
    const streams = args.length > 0 ? args : await accessStreams(trail);
    let failures = 0;
    let jwks: Jwks | undefined;
    let heads: Awaited<ReturnType<typeof checkpointsByStream>> | undefined;
    for (const stream of streams) {
      if (!trail.isChain(stream)) {
        process.stdout.write(`${stream}: no such stream\n`);
        failures++;
        continue;
      }
      const chain = await trail.entries(stream);
      if (chain.length === 0) {
        process.stdout.write(`${stream}: no such stream\n`);
        failures++;
        continue;
      }
      const streamHeads = (heads ??= await checkpointsByStream(runtime.backends.events)).get(stream) ?? [];
      // Archived and trimmed (docs/adr/0024): the live chain starts after a signed head; `audit:history` checks the archives too.
      const first = chain[0].seq;
      const anchor = liveAnchor(chain, streamHeads);
      const verdict: ChainCheck | { ok: false; entries: number; brokenAt: number; reason: string } =
        first === 0
          ? trail.verify(chain)
          : anchor
            ? ((live) => (live.ok ? { ok: true as const, entries: chain.length, head: chain.at(-1)!.hash } : { ok: false as const, entries: chain.length, brokenAt: 0, reason: live.reason }))(verifyLive(trail, chain, first, anchor.skip ? chain[0].prev_hash : anchor.head.hash))
            : { ok: false, entries: chain.length, brokenAt: 0, reason: `the chain starts at seq ${first} without a signed head before it` };
      // Signed checkpoints (docs/adr/0023): removing the newest entries up to the latest one is caught here.
      const padded = first === 0 ? chain : [...new Array<ChainEntry>(first), ...chain];
      const signed = verdict.ok ? verifyCheckpoints(stream, padded, streamHeads.filter((head) => head.seq >= first), (jwks ??= await keys.jwksAt()).keys) : undefined;
      if (verdict.ok && signed?.ok) process.stdout.write(`${stream}: ok, ${verdict.entries} entries, head ${verdict.head}, ${signed.checkpoints} signed checkpoints up to seq ${signed.covered}\n`);
      else if (signed && !signed.ok) {
        failures++;
        process.stdout.write(`${stream}: BROKEN: ${signed.reason}\n`);
      } else if (!verdict.ok) {
        failures++;
        process.stdout.write(`${stream}: BROKEN at entry ${verdict.brokenAt} of ${verdict.entries}: ${verdict.reason}\n`);
      }
    }
    if (streams.length === 0) process.stdout.write('no access_log streams yet\n');
    return failures === 0 ? 0 : 1;
  });
}

/** Value of `--name VALUE` in args, or undefined. */
function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const value = args[index + 1];
  if (!value || Number.isNaN(Date.parse(value))) throw new UsageError(`${name} needs an ISO 8601 time`);
  return value;
}

async function replayAccount(runtime: OperatorRuntime, args: string[]): Promise<number> {
  const at = option(args, '--at');
  if (!args[0] || args[0].startsWith('--') || !at) throw new UsageError('missing arguments');
  return withAuditPorts(runtime, { sign: false }, async ({ trail }) => {
    await settle(trail);
    const answer = await replayAsOf(runtime.backends.events, runtime.registry, AsOfRegistry.fromManifests(runtime.manifests), trail, args[0], new Date(at));
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return 0;
  });
}

async function exportBundle(runtime: OperatorRuntime, args: string[]): Promise<number> {
  if (!args[0] || args[0].startsWith('--')) throw new UsageError('missing arguments');
  const range = { from: option(args, '--from'), to: option(args, '--to') };
  return withAuditPorts(runtime, { sign: true }, async (ports) => {
    const { trail } = ports;
    const stream = trail.chainOf(args[0] === 'platform' ? null : args[0]);
    await settle(trail);
    await signHeadFromCli(runtime, ports, stream);
    const bundle = await buildBundle(runtime.backends.events, trail, systemClock, stream, range);
    process.stdout.write(`${JSON.stringify(bundle)}\n`);
    return 0;
  });
}

/** Signs a chain's newest entry with the service's active key (sealed with DATA_ENCRYPTION_KEY, as the service does), so the export closes on a signature (issue 30). */
async function signHeadFromCli(runtime: OperatorRuntime, { trail, keys }: AuditPorts, stream: string): Promise<void> {
  // The key ring reads the signing-keys stream (a handful of events) from the beginning; a starting service may be generating the first key.
  if (!(await keys.whenActive(5000))) process.stderr.write('note: no signing key yet (the service never started): the bundle ends on the latest stored checkpoint\n');
  else await new CheckpointWriter(runtime.backends.events, runtime.registry, trail, keys, systemClock).signHead(stream);
}

async function archiveAudit(runtime: OperatorRuntime, args: string[]): Promise<number> {
  const dryRun = args.includes('--dry-run');
  const { config } = runtime;
  // The job's clock: --now, else the system's moved by AUDIT_RETENTION_CLOCK_OFFSET_S (outside production), as the worker's.
  const clock = { now: () => (args.includes('--now') ? new Date(option(args, '--now')!) : new Date(Date.now() + config.auditRetentionClockOffsetS * 1000)) };
  return withAuditPorts(runtime, { sign: true }, async ({ trail, keys }) => {
    await settle(trail);
    const { events } = runtime.backends;
    await keys.whenActive(5000);
    const outcome = await runRetention(
      {
        events,
        trail,
        writer: new CheckpointWriter(events, runtime.registry, trail, keys, systemClock),
        // The lease runs on the real clock, whatever the job's clock says.
        lease: new RetentionLease(events, runtime.registry, systemClock, 'ops'),
        streams: () => accessStreams(trail),
        progress: (segment) => process.stdout.write(`archived ${segment.stream} ${segment.month}${segment.part > 1 ? ` part ${segment.part}` : ''}: ${segment.entries} entries (seq ${segment.first_seq}-${segment.last_seq})\n`),
      },
      { archiveDir: config.archiveDir, liveWindowMs: config.auditLiveWindowS * 1000, now: clock.now(), dryRun, onStep: killAtStep(config.auditArchiveTestKillAt) },
    );
    if (outcome.status === 'held') {
      process.stdout.write(`another archive run holds the lease: ${outcome.held_by.role} process ${outcome.held_by.pid} on ${outcome.held_by.host}, until ${outcome.until}\n`);
      return 75;
    }
    if (dryRun) for (const segment of outcome.segments) process.stdout.write(`would archive ${segment.stream} ${segment.month}${segment.part > 1 ? ` part ${segment.part}` : ''}: ${segment.entries} entries (seq ${segment.first_seq}-${segment.last_seq})\n`);
    process.stdout.write(`${dryRun ? 'dry run: ' : ''}${outcome.entries} entries${dryRun ? ' would be' : ''} archived into ${config.archiveDir}\n`);
    return 0;
  });
}

function listArchives(runtime: OperatorRuntime): Promise<number> {
  return withAuditPorts(runtime, { sign: false }, async ({ trail }) => {
    for (const stream of archivedStreams(runtime.config.archiveDir, (id) => trail.isChain(id))) {
      for (const { manifest } of readManifests(runtime.config.archiveDir, stream)) {
        process.stdout.write(`${stream} ${manifest.month} ${manifest.file} ${manifest.entries} entries seq ${manifest.first_seq}-${manifest.last_seq} ${manifest.bytes} B sha256 ${manifest.sha256}\n`);
      }
    }
    return 0;
  });
}

async function verifyAuditHistory(runtime: OperatorRuntime, args: string[]): Promise<number> {
  // The offline verifier's own function checks each archive (tools/verify-audit-bundle.mjs: node built-ins only).
  const { verifyBundle } = (await import(pathToFileURL(path.resolve(process.cwd(), 'tools/verify-audit-bundle.mjs')).href)) as { verifyBundle: Parameters<typeof verifyHistory>[5] };
  return withAuditPorts(runtime, { sign: false }, async ({ trail, keys }) => {
    await settle(trail);
    const jwks = await keys.jwksAt();
    const streams = args.length > 0 ? args : [...new Set([...archivedStreams(runtime.config.archiveDir, (id) => trail.isChain(id)), ...(await accessStreams(trail))])].sort();
    let failures = 0;
    for (const stream of streams) {
      const verdict = verifyHistory(trail, runtime.config.archiveDir, stream, trail.isChain(stream) ? await trail.entries(stream) : [], jwks, verifyBundle);
      if (verdict.ok) process.stdout.write(`${stream}: ok, ${verdict.archives} archives (${verdict.archived_entries} entries) + ${verdict.live_entries} live entries\n`);
      else {
        failures++;
        process.stdout.write(`${stream}: BROKEN: ${verdict.reason}\n`);
      }
    }
    return failures === 0 ? 0 : 1;
  });
}

/** Every access chain of the log (one scan, with a progress bar on a terminal). */
async function accessStreams(trail: AuditTrail): Promise<string[]> {
  const bar = progressBar('scanning the log');
  try {
    return await trail.chains((position, head, found) => bar.update(position, head, found));
  } finally {
    bar.stop();
  }
}
