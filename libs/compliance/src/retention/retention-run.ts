import type { EventStore } from '../../../platform/src/index.js';
import type { AuditTrail } from '../../../audit/src/index.js';
import { checkpointsByStream, type CheckpointWriter } from '../checkpoints/checkpoint-writer.js';
import type { RetentionHolder } from '../domain/retention.js';
import { archiveChain, archivedStreams, type ArchiveTrail, type PlannedSegment, type RetentionOptions, type RetentionStep } from './archiver.js';
import type { RetentionLease } from './retention-lease.js';

export type RetentionRunOutcome =
  | { status: 'held'; held_by: RetentionHolder; until: string }
  | { status: 'completed'; run_id: string | null; streams: number; segments: PlannedSegment[]; entries: number };

export interface RetentionRunDeps {
  events: EventStore;
  trail: ArchiveTrail;
  writer: Pick<CheckpointWriter, 'signEntry'>;
  lease: RetentionLease;
  /** The access chains to look at. */
  streams: () => Promise<string[]>;
  /** Progress: one line per archived segment. */
  progress?: (segment: PlannedSegment) => void;
}

/**
 * One run of the archive job (docs/adr/0024), by the worker on its schedule
 * or by `audit:archive`: takes the lease (or reports who holds it), archives
 * every chain, renews the lease between segments, and records the outcome on
 * the lease stream. A dry run only reads, and takes no lease.
 */
export async function runRetention(deps: RetentionRunDeps, options: RetentionOptions): Promise<RetentionRunOutcome> {
  const streams = await deps.streams();
  if (options.dryRun) {
    const segments: PlannedSegment[] = [];
    for (const stream of streams) segments.push(...(await archiveChain(deps.events, deps.trail, deps.writer, stream, options)));
    return { status: 'completed', run_id: null, streams: streams.length, segments, entries: segments.reduce((sum, s) => sum + s.entries, 0) };
  }
  const lease = await deps.lease.acquire();
  if (!('runId' in lease)) return { status: 'held', ...lease };
  const segments: PlannedSegment[] = [];
  const entries = () => segments.reduce((sum, s) => sum + s.entries, 0);
  try {
    for (const stream of streams) {
      await lease.renewIfDue();
      const onStep = async (step: RetentionStep, segment: PlannedSegment) => {
        await options.onStep?.(step, segment);
        if (step !== 'trimmed') return;
        deps.progress?.(segment);
        await lease.renewIfDue();
      };
      segments.push(...(await archiveChain(deps.events, deps.trail, deps.writer, stream, { ...options, onStep })));
    }
  } catch (error) {
    await lease.end({ outcome: 'failed', segments: segments.length, entries: entries(), error: error instanceof Error ? error.message : String(error) }).catch(() => false);
    throw error;
  }
  await lease.end({ outcome: 'completed', segments: segments.length, entries: entries() });
  return { status: 'completed', run_id: lease.runId, streams: streams.length, segments, entries: entries() };
}

/**
 * The kill test's hook (AUDIT_ARCHIVE_TEST_KILL_AT=`STEP[:N]`, NODE_ENV=test
 * only): the process SIGKILLs itself the Nth time it completes STEP, as a
 * crash or an OOM kill would stop it there.
 */
export function killAtStep(spec: string | undefined): RetentionOptions['onStep'] {
  if (!spec) return undefined;
  const [step, nth = '1'] = spec.split(':');
  let seen = 0;
  return (done) => {
    if (done === step && ++seen === Number(nth)) process.kill(process.pid, 'SIGKILL');
  };
}

/**
 * The access chains the worker looks at: those a checkpoint names (the
 * periodic round signs every chain that moved) and those with archives; with
 * the rounds off, every chain of the log (the AuditTrail's scan).
 */
export async function retentionStreams(events: EventStore, trail: Pick<AuditTrail, 'chains' | 'isChain'>, archiveDir: string, roundsOn: boolean): Promise<string[]> {
  const isChain = (id: string) => trail.isChain(id);
  const streams = new Set(archivedStreams(archiveDir, isChain));
  if (roundsOn) for (const stream of (await checkpointsByStream(events)).keys()) streams.add(stream);
  else for (const stream of await trail.chains()) streams.add(stream);
  return [...streams].filter(isChain).sort();
}
