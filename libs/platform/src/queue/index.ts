import path from 'node:path';
import { BullMqJobQueue } from './bullmq/bullmq-job-queue.js';
import { EmbeddedJobQueue } from './embedded/embedded-job-queue.js';
import type { JobQueue } from './job-queue.port.js';

export * from './job-queue.port.js';
export { EmbeddedJobQueue, QueueDirectoryInUseError, type EmbeddedJobQueueOptions } from './embedded/embedded-job-queue.js';
export { BullMqJobQueue, type BullMqJobQueueOptions } from './bullmq/bullmq-job-queue.js';

export interface JobQueueOptions {
  /** REDIS_URL; when set, BullMQ is the queue. */
  redisUrl?: string;
  /** DATA_DIR; the embedded queue lives in `<dataDir>/queue`. */
  dataDir: string;
  /** Errors raised where no caller waits (a worker losing Redis); default console.error. */
  onError?: (error: unknown) => void;
}

/** BullMQ when a Redis URL is configured, the embedded LMDB queue under DATA_DIR otherwise. */
export async function openJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const { onError } = options;
  if (options.redisUrl) return BullMqJobQueue.open({ redisUrl: options.redisUrl, onError });
  return EmbeddedJobQueue.open(path.join(options.dataDir, 'queue'), { onError });
}
