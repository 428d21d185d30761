import type { SecretBox } from '../crypto/index.js';
import type { JsonLogger } from '../logging/json-logger.js';
import type { Job, JobQueue, Worker } from '../queue/job-queue.port.js';
import type { MailMessage, Mailer } from './mailer.port.js';

/** Nest injection token of the MailQueue. */
export const MAIL_QUEUE = Symbol('MailQueue');
/** The job queue's queue name and job name for mail. */
export const MAIL_QUEUE_NAME = 'mail';
export const SEND_MAIL_JOB = 'send-mail';

/** Tries in all, the first included. */
export const MAIL_ATTEMPTS = 10;

/**
 * Delays before retry 1, 2, … 9: at once (a dropped connection), 5 s, 30 s,
 * 2 min, 10 min, 30 min, then hourly. The last try is made about 3 h 43 min
 * after the first, which rides out an SMTP restart or a maintenance window;
 * after that a signup key or reset link is stale anyway, and the failed job
 * stays in the queue for an operator to inspect.
 */
export const MAIL_RETRY_DELAYS_MS: readonly number[] = [
  0,
  5_000,
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  60 * 60_000,
  60 * 60_000,
  60 * 60_000,
];

/** What rests in the queue's storage: the message, sealed. Nothing else, so no recipient or key is readable in Redis or LMDB. */
export interface SealedMailJob {
  sealed: string;
}

export interface MailQueueOptions {
  queue: JobQueue;
  /** Delivers each job: SMTP, or the outbox. */
  mailer: Mailer;
  /** Seals the job payload (a signup mail carries a freshly issued API key). */
  secretBox: SecretBox;
  logger: Pick<JsonLogger, 'warn' | 'error'>;
  /** Default MAIL_ATTEMPTS. */
  attempts?: number;
  /** Default MAIL_RETRY_DELAYS_MS (the last value repeats); tests shorten it. */
  retryDelaysMs?: readonly number[];
  /** Mails sent at the same time; default 1. */
  concurrency?: number;
}

/**
 * Durable, retried mail: `enqueue` returns once the job is stored (a signup
 * does not wait for, or fail with, the SMTP server), and the worker delivers
 * it with the Mailer, retrying on the schedule above.
 *
 * Delivery is at least once: a crash after the server accepted the message
 * but before the job was marked done sends it again, with the same Message-ID.
 * The payload is sealed with the SecretBox, bound to the job id as associated
 * data so a sealed body cannot be replayed under another job.
 */
export class MailQueue {
  private readonly queue: JobQueue;
  private readonly mailer: Mailer;
  private readonly secretBox: SecretBox;
  private readonly logger: Pick<JsonLogger, 'warn' | 'error'>;
  private readonly attempts: number;
  private readonly retryDelaysMs: number[];
  private readonly concurrency: number;

  constructor(options: MailQueueOptions) {
    this.queue = options.queue;
    this.mailer = options.mailer;
    this.secretBox = options.secretBox;
    this.logger = options.logger;
    this.attempts = options.attempts ?? MAIL_ATTEMPTS;
    this.retryDelaysMs = [...(options.retryDelaysMs ?? MAIL_RETRY_DELAYS_MS)];
    this.concurrency = options.concurrency ?? 1;
  }

  /**
   * Stores the mail for delivery. The message id is the job id: enqueuing the
   * same id again (a retried command) adds nothing while the first is kept.
   */
  async enqueue(message: MailMessage): Promise<{ added: boolean }> {
    if (!message.id) throw new Error('A mail needs an id');
    const sealed = this.secretBox.seal(JSON.stringify(message), associatedData(message.id));
    const { added } = await this.queue.add<SealedMailJob>(MAIL_QUEUE_NAME, SEND_MAIL_JOB, { sealed }, {
      jobId: message.id,
      attempts: this.attempts,
      backoff: { type: 'schedule', delaysMs: this.retryDelaysMs },
    });
    return { added };
  }

  /** Starts delivering queued mail in this process (one worker per process). */
  startWorker(): Worker {
    return this.queue.process<SealedMailJob>(MAIL_QUEUE_NAME, (job) => this.deliver(job), {
      concurrency: this.concurrency,
    });
  }

  private async deliver(job: Job<SealedMailJob>): Promise<void> {
    const attempt = job.attemptsMade + 1;
    try {
      const message = JSON.parse(this.secretBox.open(job.data.sealed, associatedData(job.id))) as MailMessage;
      await this.mailer.send(message);
    } catch (error) {
      // Never the body, recipient or subject: the mail id lets an operator find the cause.
      const fields = { mail_id: job.id, attempt, attempts: this.attempts, err: error instanceof Error ? error.message : String(error) };
      if (attempt >= this.attempts) this.logger.error({ msg: 'mail not delivered; giving up, job left failed', ...fields });
      else this.logger.warn({ msg: 'mail delivery failed; will retry', ...fields });
      throw error;
    }
  }
}

function associatedData(id: string): string {
  return `${MAIL_QUEUE_NAME}:${id}`;
}
