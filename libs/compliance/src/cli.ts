import { accessJournalDir, accessStream, JournaledAccessRecorder, verifyChain, type ApiAccessRecorded } from '../../audit/src/index.js';
import { progressBar, SecretBox, StreamNotFoundError, systemClock, UsageError, type OperatorCommand, type OperatorRuntime } from '../../platform/src/index.js';
import { SigningKeyRing } from '../../identity/src/index.js';
import { checkpointsByStream, CheckpointWriter } from './checkpoints/checkpoint-writer.js';
import { jwksFromLog } from './checkpoints/jwks-from-log.js';
import { liveAnchor } from './checkpoints/live-anchor.js';
import { verifyCheckpoints } from './checkpoints/verify-checkpoints.js';
import { buildBundle } from './export/audit-bundle.js';
import { archivedStreams, readManifests, verifyHistory, verifyLive } from './retention/archiver.js';
import { readChain } from './replay/as-of-replay.js';
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
 * (ADR 0004): store what a stopped api process left in it before reading the
 * chains. A running api process holds it and stores its entries within ~25 ms.
 */
async function settleAccessJournal(runtime: OperatorRuntime): Promise<void> {
  if (runtime.config.eventStoreUrl) return;
  const outcome = await JournaledAccessRecorder.settle(runtime.backends.events, runtime.registry, accessJournalDir(runtime.config.dataDir));
  if (outcome === 'held') process.stderr.write('note: the service is running; access entries answered in the last ~25 ms may not be in the chains yet\n');
}

async function verifyAudit(runtime: OperatorRuntime, args: string[]): Promise<number> {
  await settleAccessJournal(runtime);
  const streams = args.length > 0 ? args : await accessStreams(runtime);
  let failures = 0;
  let jwks: Awaited<ReturnType<typeof jwksFromLog>> | undefined;
  let heads: Awaited<ReturnType<typeof checkpointsByStream>> | undefined;
  for (const stream of streams) {
    let events;
    try {
      events = await runtime.backends.events.readStream(stream);
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
      process.stdout.write(`${stream}: no such stream\n`);
      failures++;
      continue;
    }
    const chain = events.map((event) => event.data as ApiAccessRecorded['data']);
    const streamHeads = (heads ??= await checkpointsByStream(runtime.backends.events)).get(stream) ?? [];
    // Archived and trimmed (docs/adr/0024): the live chain starts after a signed head; `audit:history` checks the archives too.
    const first = chain[0]?.seq ?? 0;
    const anchor = liveAnchor(chain, streamHeads);
    const verdict: ReturnType<typeof verifyChain> =
      first === 0
        ? verifyChain(chain)
        : anchor
          ? ((live) => (live.ok ? { ok: true, entries: chain.length, head: chain.at(-1)!.hash } : { ok: false, entries: chain.length, brokenAt: 0, reason: live.reason }))(verifyLive(chain, first, anchor.skip ? chain[0].prev_hash : anchor.head.hash))
          : { ok: false, entries: chain.length, brokenAt: 0, reason: `the chain starts at seq ${first} without a signed head before it` };
    // Signed checkpoints (docs/adr/0023): removing the newest entries up to the latest one is caught here.
    const padded = first === 0 ? chain : [...new Array<ApiAccessRecorded['data']>(first), ...chain];
    const signed = verdict.ok ? verifyCheckpoints(stream, padded, streamHeads.filter((head) => head.seq >= first), (jwks ??= await jwksFromLog(runtime.backends.events)).keys) : undefined;
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
  await settleAccessJournal(runtime);
  const answer = await replayAsOf(runtime.backends.events, runtime.registry, AsOfRegistry.fromManifests(runtime.manifests), args[0], new Date(at));
  process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
  return 0;
}

async function exportBundle(runtime: OperatorRuntime, args: string[]): Promise<number> {
  if (!args[0] || args[0].startsWith('--')) throw new UsageError('missing arguments');
  const stream = accessStream(args[0] === 'platform' ? null : args[0]);
  await settleAccessJournal(runtime);
  await signHeadFromCli(runtime, stream);
  const bundle = await buildBundle(runtime.backends.events, systemClock, stream, { from: option(args, '--from'), to: option(args, '--to') });
  process.stdout.write(`${JSON.stringify(bundle)}\n`);
  return 0;
}

/** Signs a chain's newest entry with the service's active key (sealed with DATA_ENCRYPTION_KEY, as the service does), so the export closes on a signature (issue 30). */
async function signHeadFromCli(runtime: OperatorRuntime, stream: string): Promise<void> {
  const { events } = runtime.backends;
  const box = await SecretBox.fromConfig({ dataEncryptionKey: runtime.config.dataEncryptionKey, dataDir: runtime.config.dataDir });
  const ring = new SigningKeyRing(events, runtime.registry, box);
  await ring.start();
  try {
    // The follower reads the signing-keys stream (a handful of events) from the beginning.
    for (let waited = 0; ring.summary().active_kid === null && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    if (ring.summary().active_kid === null) process.stderr.write('note: no signing key yet (the service never started): the bundle ends on the latest stored checkpoint\n');
    else await new CheckpointWriter(events, runtime.registry, ring, systemClock).signHead(stream);
  } finally {
    await ring.onModuleDestroy();
  }
}

async function archiveAudit(runtime: OperatorRuntime, args: string[]): Promise<number> {
  const dryRun = args.includes('--dry-run');
  const { config } = runtime;
  // The job's clock: --now, else the system's moved by AUDIT_RETENTION_CLOCK_OFFSET_S (outside production), as the worker's.
  const clock = { now: () => (args.includes('--now') ? new Date(option(args, '--now')!) : new Date(Date.now() + config.auditRetentionClockOffsetS * 1000)) };
  await settleAccessJournal(runtime);
  const { events } = runtime.backends;
  const box = await SecretBox.fromConfig({ dataEncryptionKey: config.dataEncryptionKey, dataDir: config.dataDir });
  const ring = new SigningKeyRing(events, runtime.registry, box);
  await ring.start();
  try {
    for (let waited = 0; ring.summary().active_kid === null && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const outcome = await runRetention(
      {
        events,
        writer: new CheckpointWriter(events, runtime.registry, ring, systemClock),
        // The lease runs on the real clock, whatever the job's clock says.
        lease: new RetentionLease(events, runtime.registry, systemClock, 'ops'),
        streams: () => accessStreams(runtime),
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
  } finally {
    await ring.onModuleDestroy();
  }
}

async function listArchives(runtime: OperatorRuntime): Promise<number> {
  for (const stream of archivedStreams(runtime.config.archiveDir)) {
    for (const { manifest } of readManifests(runtime.config.archiveDir, stream)) {
      process.stdout.write(`${stream} ${manifest.month} ${manifest.file} ${manifest.entries} entries seq ${manifest.first_seq}-${manifest.last_seq} ${manifest.bytes} B sha256 ${manifest.sha256}\n`);
    }
  }
  return 0;
}

async function verifyAuditHistory(runtime: OperatorRuntime, args: string[]): Promise<number> {
  await settleAccessJournal(runtime);
  const { events } = runtime.backends;
  // The offline verifier's own function checks each archive (tools/verify-audit-bundle.mjs: node built-ins only).
  const { verifyBundle } = (await import(pathToFileURL(path.resolve(process.cwd(), 'tools/verify-audit-bundle.mjs')).href)) as { verifyBundle: Parameters<typeof verifyHistory>[4] };
  const jwks = await jwksFromLog(events);
  const streams = args.length > 0 ? args : [...new Set([...archivedStreams(runtime.config.archiveDir), ...(await accessStreams(runtime))])].sort();
  let failures = 0;
  for (const stream of streams) {
    const verdict = verifyHistory(runtime.config.archiveDir, stream, await readChain(events, stream), jwks, verifyBundle);
    if (verdict.ok) process.stdout.write(`${stream}: ok, ${verdict.archives} archives (${verdict.archived_entries} entries) + ${verdict.live_entries} live entries\n`);
    else {
      failures++;
      process.stdout.write(`${stream}: BROKEN: ${verdict.reason}\n`);
    }
  }
  return failures === 0 ? 0 : 1;
}

async function accessStreams(runtime: OperatorRuntime): Promise<string[]> {
  const streams = new Set<string>();
  let after = 0n;
  const bar = progressBar('scanning the log');
  const head = await runtime.backends.events.headPosition();
  for (;;) {
    const page = await runtime.backends.events.readAll({ after, maxCount: 5000 });
    if (page.length === 0) break;
    for (const event of page) if (event.streamName.startsWith('access_log-')) streams.add(event.streamName);
    after = page[page.length - 1].position;
    bar.update(Number(after), Number(head > after ? head : after), streams.size);
  }
  bar.stop();
  return [...streams].sort();
}
