import type { JobOptions } from './job-queue.port.js';

/**
 * Argument checks both adapters apply, so a call that works against the
 * embedded queue in development cannot start failing on BullMQ in production.
 * These guard programmer errors (names are constants in code), hence plain Errors.
 */

/** BullMQ joins queue names into Redis keys with ':' and rejects it; keep names key-safe everywhere. */
const QUEUE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export function assertQueueName(queue: string): void {
  if (!QUEUE_NAME.test(queue)) {
    throw new Error(`Invalid queue name "${queue}": use letters, digits, '_', '.', '-' (max 128)`);
  }
}

export interface CheckedJobOptions {
  jobId?: string;
  delayMs: number;
  attempts: number;
}

export function checkJobOptions(options: JobOptions = {}): CheckedJobOptions {
  const { jobId, delayMs = 0, attempts = 1 } = options;
  if (jobId !== undefined && jobId.length === 0) throw new Error('jobId must not be empty');
  if (!Number.isFinite(delayMs) || delayMs < 0) throw new Error(`delayMs must be a finite number >= 0, got ${delayMs}`);
  if (!Number.isInteger(attempts) || attempts < 1) throw new Error(`attempts must be an integer >= 1, got ${attempts}`);
  return { jobId, delayMs, attempts };
}

export function checkConcurrency(concurrency = 1): number {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new Error(`concurrency must be an integer >= 1, got ${concurrency}`);
  }
  return concurrency;
}

/** The reason recorded for a failed attempt; handlers may throw non-Errors. */
export function failureReason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
