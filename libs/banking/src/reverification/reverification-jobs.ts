import { createHash } from 'node:crypto';
import type { JobQueue } from '../../../platform/src/index.js';

/** The queue of due re-verification runs (delayed jobs; BullMQ in production, the embedded durable queue otherwise). */
export const REVERIFICATION_QUEUE = 'banking-reverification';

export interface ReverificationJob {
  account_id: string;
  schedule_id: string;
  /** The run this job is for (1-based). */
  run: number;
}

/**
 * Puts run `run` of a schedule on the queue, to start at `dueAt`. The job id
 * names the schedule and run, so scheduling the same run twice (a retried
 * job, a restart) adds it once; `attempt` distinguishes a run put back
 * because it woke early.
 */
export async function enqueueRun(queue: JobQueue, job: ReverificationJob, dueAt: string, now: Date, attempt = 0): Promise<void> {
  const delayMs = Math.max(0, Date.parse(dueAt) - now.getTime());
  await queue.add(REVERIFICATION_QUEUE, 'run', job, {
    jobId: `reverify-${job.schedule_id}-${job.run}${attempt > 0 ? `-${attempt}` : ''}`,
    delayMs,
    // A failure of the service itself (the event store away): retried, a minute apart, for a while.
    attempts: 10,
    backoff: { type: 'exponential', delayMs: 60_000, maxDelayMs: 3_600_000 },
  });
}

/**
 * identity's verification id for run `run` of a schedule: the same for every
 * try of that run, so identity records it once (its decider skips an id it
 * has recorded) however often the job is retried.
 */
export function runVerificationId(scheduleId: string, run: number): string {
  return `vrf_${createHash('sha256').update(`${scheduleId}:${run}`).digest('hex').slice(0, 32)}`;
}
