import type { Job, JobHandler, JobOptions, JobQueue, Worker } from '../../../platform/src/index.js';
import { deliveryIdOf } from '../domain/delivery.js';
import type { SealedNotification, StoredNotification } from '../domain/notification.js';

export const WEBHOOK_QUEUE = 'webhooks';
/** A notification's automatic delivery, retried on the schedule. */
export const DELIVER_JOB = 'deliver';
/** POST /v2/webhooks/retry/{deliveryId}: a manual re-send, retried on the same schedule. */
export const REDELIVER_JOB = 'redeliver';

/**
 * The webhook queue. Job data is the sealed notification and nothing else: no
 * body, no secret, no location and no customer id in the clear (a keyed hash,
 * and the pointer to the stored event sealed), so the queue's storage (LMDB or
 * Redis, finished jobs included) never holds anything consent erasure would
 * have to purge; the body is built at attempt time from the stored event,
 * which erasure deletes. Jobs queued before delivery schema version 2 hold the
 * notification in the clear and are still run.
 */
export class WebhookJobs {
  constructor(
    private readonly queue: JobQueue,
    /** Delays before retry 1, 2, …; attempts in all = retries + 1. */
    private readonly retryDelaysMs: readonly number[],
  ) {}

  get attempts(): number {
    return this.retryDelaysMs.length + 1;
  }

  /** Delay before the retry that follows attempt `attempt` (1-based) of a job; undefined after the last. */
  retryDelayAfter(attempt: number): number | undefined {
    return attempt < this.attempts ? this.retryDelaysMs[attempt - 1] : undefined;
  }

  /** Job id `deliver.<delivery id>`: the fan-out seeing an event again adds nothing. */
  deliver(notification: SealedNotification): Promise<{ id: string; added: boolean }> {
    return this.queue.add(WEBHOOK_QUEUE, DELIVER_JOB, notification, { jobId: `deliver.${deliveryIdOf(notification)}`, ...this.options() });
  }

  /** One job per retry request, named by the revision the request was stored at, so a repeated enqueue adds nothing. */
  redeliver(notification: StoredNotification, requestRevision: bigint): Promise<{ id: string; added: boolean }> {
    return this.queue.add(WEBHOOK_QUEUE, REDELIVER_JOB, notification, {
      jobId: `redeliver.${deliveryIdOf(notification)}.${requestRevision}`,
      ...this.options(),
    });
  }

  /** Drops a delivery's automatic job, whatever its state (erasure of a delivery that named its customer in the clear). */
  removeDelivery(deliveryId: string): Promise<void> {
    return this.queue.remove(WEBHOOK_QUEUE, `deliver.${deliveryId}`);
  }

  /** Drops one job by id, whatever its state; a running one loses its data at once (its handler may be the caller). */
  removeJob(jobId: string): Promise<void> {
    return this.queue.remove(WEBHOOK_QUEUE, jobId);
  }

  process(handler: (job: Job<StoredNotification>, manual: boolean) => Promise<void>, concurrency: number): Worker {
    const run: JobHandler<StoredNotification> = (job) => handler(job, job.name === REDELIVER_JOB);
    return this.queue.process<StoredNotification>(WEBHOOK_QUEUE, run, { concurrency });
  }

  private options(): JobOptions {
    return { attempts: this.attempts, backoff: { type: 'schedule', delaysMs: [...this.retryDelaysMs] } };
  }
}
