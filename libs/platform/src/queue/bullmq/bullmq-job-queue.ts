import { randomUUID } from 'node:crypto';
import {
  Job as BullJob,
  Queue,
  Worker as BullWorker,
  createIORedisClient,
  type BackoffOptions,
  type BackoffStrategy,
  type IRedisClient,
  type JobState as BullJobState,
} from 'bullmq';
import { BackendUnavailableError } from '../../errors.js';
import { assertQueueName, checkConcurrency, checkJobOptions, failureReason } from '../job-options.js';
import {
  backoffDelay,
  type Backoff,
  type JobHandler,
  type JobInfo,
  type JobOptions,
  type JobQueue,
  type JobState,
  type Worker,
} from '../job-queue.port.js';
import { Redis } from 'ioredis';

/**
 * The job queue on BullMQ (Redis): one BullMQ Queue and at most one Worker per
 * queue name, created on first use, all sharing one connection (workers
 * duplicate it for their blocking reads, as BullMQ requires).
 *
 * Backoff: 'fixed' and integer 'exponential' without a cap map to BullMQ's
 * built-ins, which compute exactly `backoffDelay` (delay × 2^(retry−1)).
 * 'schedule' and capped exponential travel as a custom backoff type carrying the
 * port's policy in the job's options; the workers' `settings.backoffStrategy`
 * evaluates it with `backoffDelay`, so both adapters share one formula.
 *
 * Retention: the last `keepCompleted`/`keepFailed` finished jobs per queue are
 * kept (`removeOnComplete`/`removeOnFail` counts), the same defaults as the
 * embedded adapter; while kept they answer getJob and deduplicate their jobId.
 *
 * Job ids: BullMQ rejects custom ids that look like integers or contain ':'.
 * Ids are escaped reversibly on the way in, so the port accepts any id on both
 * adapters; jobs added without an id get a UUID, as on the embedded queue.
 *
 * Removing an active job: BullMQ refuses to delete a job a worker holds a lock
 * on. Its payload is overwritten with an erasure marker at once (the purpose of
 * remove is consent erasure), the job stops being visible through getJob and is
 * never handed to a handler again, and its id stays taken (as on the embedded
 * queue) until the record goes: when the running attempt ends if the remover's
 * or the worker's process sees it end erased; in the one case neither does (a
 * worker elsewhere completes the attempt it started before the erasure) the
 * hidden record stays until retention trims it.
 *
 * Connection: ioredis (BullMQ 6 lists it as an optional peer, so it is a direct
 * dependency here), wrapped by BullMQ's own `createIORedisClient`.
 * `maxRetriesPerRequest: null`, as BullMQ requires for its blocking worker reads.
 */

export interface BullMqJobQueueOptions {
  redisUrl: string;
  /** Redis key prefix; default 'bull' (BullMQ's, so dashboards find the queues). */
  prefix?: string;
  keepCompleted?: number;
  keepFailed?: number;
  /** Errors no caller can receive (connection drops seen by workers). */
  onError?: (error: unknown) => void;
}

const PORT_BACKOFF = 'job-queue-port';
const ERASED = { __jobQueueErased: true } as const;

export class BullMqJobQueue implements JobQueue {
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Map<string, BullWorker>();
  /** `queue\0id` of active jobs whose removal waits for their lock to be released. */
  private readonly pendingRemovals = new Set<string>();
  private closed = false;
  private closing?: Promise<void>;

  private constructor(
    private readonly client: IRedisClient,
    private readonly prefix: string,
    private readonly keepCompleted: number,
    private readonly keepFailed: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Connects first, so a wrong URL or a Redis that is down fails at start-up, not on the first job. */
  static async open(options: BullMqJobQueueOptions): Promise<BullMqJobQueue> {
    // No retries until the first connection succeeds, so a failed open leaves nothing behind: the client ends
    // by itself. (disconnect() after a refused connect would leave ioredis's 2 s destroy timer holding the
    // process, and a reconnect could be scheduled after it.) Once open, ioredis's own schedule (50 ms more
    // per attempt, at most 2 s) rides out Redis restarts. The connect error is the one thrown, not also logged by ioredis.
    let opened = false;
    const redis = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: null, retryStrategy: (times) => (opened ? Math.min(times * 50, 2000) : null) });
    let cause: unknown;
    const quiet = (error: unknown) => {
      cause = error;
    };
    redis.on('error', quiet);
    const client = createIORedisClient(redis);
    try {
      await client.connect();
      opened = true;
    } catch (error) {
      if (redis.status !== 'end') redis.disconnect();
      // ioredis rejects with "Connection is closed."; the socket's own error says why (ECONNREFUSED, ENOTFOUND…).
      throw new BackendUnavailableError(`Redis is unreachable: ${failureReason(cause ?? error)}`);
    } finally {
      redis.off('error', quiet);
    }
    return new BullMqJobQueue(
      client,
      options.prefix ?? 'bull',
      options.keepCompleted ?? 1000,
      options.keepFailed ?? 10_000,
      options.onError ?? ((error) => console.error('[bullmq-job-queue]', error)),
    );
  }

  async add<Data>(
    queueName: string,
    name: string,
    data: Data,
    options: JobOptions = {},
  ): Promise<{ id: string; added: boolean }> {
    this.assertOpen();
    assertQueueName(queueName);
    const { jobId, delayMs, attempts } = checkJobOptions(options);
    const queue = this.queue(queueName);
    // Ids are always ours (UUIDs, as on the embedded queue): BullMQ's own are integers,
    // which the id escaping below would mistake for escaped custom ids.
    const id = jobId ?? randomUUID();
    // BullMQ's add answers the existing id for a duplicate without saying so; ask first.
    // Two processes racing on one id still store one job (BullMQ checks atomically),
    // but both may answer added: true.
    if (jobId !== undefined && (await queue.getJobState(encodeJobId(jobId))) !== 'unknown') {
      return { id: jobId, added: false };
    }
    await queue.add(name, data, {
      jobId: encodeJobId(id),
      delay: Math.ceil(delayMs),
      attempts,
      backoff: toBullBackoff(options.backoff),
      removeOnComplete: { count: this.keepCompleted },
      removeOnFail: { count: this.keepFailed },
    });
    return { id, added: true };
  }

  process<Data>(queueName: string, handler: JobHandler<Data>, options: { concurrency?: number } = {}): Worker {
    this.assertOpen();
    assertQueueName(queueName);
    if (this.workers.has(queueName)) {
      throw new Error(`A processor is already registered for queue "${queueName}" in this process`);
    }
    const worker = new BullWorker(
      queueName,
      async (job) => {
        if (isErased(job.data)) return;
        try {
          await handler({
            id: decodeJobId(job.id!),
            queue: queueName,
            name: job.name,
            data: job.data as Data,
            attemptsMade: job.attemptsMade,
          });
        } catch (error) {
          // BullMQ records `error.message`; a thrown string would become "undefined".
          throw error instanceof Error ? error : new Error(failureReason(error));
        }
      },
      {
        connection: this.client,
        prefix: this.prefix,
        concurrency: checkConcurrency(options.concurrency),
        settings: { backoffStrategy: portBackoffStrategy },
      },
    );
    worker.on('error', (error) => this.onError(error));
    // A job seen erased here was removed while a worker elsewhere ran it: its record goes now.
    const settle = (job: BullJob | undefined) => {
      if (job?.id !== undefined) void this.removeIfPending(queueName, job.id, isErased(job.data));
    };
    worker.on('completed', settle);
    worker.on('failed', settle);
    this.workers.set(queueName, worker);
    return {
      close: async () => {
        if (this.workers.get(queueName) !== worker) return;
        await worker.close();
        this.workers.delete(queueName);
      },
    };
  }

  /** BullMQ's own counts: waiting (and prioritized), delayed (retries wait there too) and active. */
  async depth(queueName: string): Promise<number> {
    this.assertOpen();
    const counts = await this.queue(queueName).getJobCounts('waiting', 'prioritized', 'delayed', 'active');
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
  }

  async getJob<Data>(queueName: string, id: string): Promise<JobInfo<Data> | undefined> {
    this.assertOpen();
    const queue = this.queue(queueName);
    const encoded = encodeJobId(id);
    // The state first, then the job's hash: the hash read afterwards is at least as new as the state, so a
    // finished job shows its final attemptsMade (read the other way round, a job finishing between the two
    // reads looked completed with the count of its last failure).
    const state = toPortState(await queue.getJobState(encoded));
    if (state === undefined) return undefined;
    const job = await BullJob.fromId(queue, encoded);
    if (!job || isErased(job.data)) return undefined; // removed between the two reads, or erased
    return {
      id,
      queue: queueName,
      name: job.name,
      data: job.data as Data,
      attemptsMade: job.attemptsMade,
      state,
      ...(job.failedReason && state !== 'completed' ? { failedReason: job.failedReason } : {}),
    };
  }

  async remove(queueName: string, id: string): Promise<void> {
    this.assertOpen();
    const queue = this.queue(queueName);
    const encoded = encodeJobId(id);
    if ((await queue.remove(encoded)) === 1) return;
    // Locked by a worker (active): erase the payload now, drop the record once unlocked.
    this.pendingRemovals.add(`${queueName}\0${encoded}`);
    const job = await BullJob.fromId(queue, encoded);
    try {
      await job?.updateData(ERASED);
    } catch (error) {
      // Finished and trimmed between the two calls: nothing left to erase.
      if ((await queue.getJobState(encoded)) !== 'unknown') throw error;
    }
    await this.removeIfPending(queueName, encoded);
  }

  async ping(): Promise<void> {
    this.assertOpen();
    try {
      await this.client.info();
    } catch (error) {
      throw new BackendUnavailableError(`Redis is unreachable: ${failureReason(error)}`);
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      // Workers first: they wait for running handlers, which may still report to their queue.
      await Promise.all([...this.workers.values()].map((worker) => worker.close()));
      await Promise.all([...this.queues.values()].map((queue) => queue.close()));
      this.workers.clear();
      this.queues.clear();
      // Queues share this caller-owned client, so BullMQ leaves it open; it is ours to close.
      await this.client.quit();
      // The Bun-style adapter destroys the socket on the next turn.
      await new Promise((resolve) => setImmediate(resolve));
    })();
    return this.closing;
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      assertQueueName(name);
      queue = new Queue(name, { connection: this.client, prefix: this.prefix });
      queue.on('error', (error) => this.onError(error));
      this.queues.set(name, queue);
    }
    return queue;
  }

  private async removeIfPending(queueName: string, encodedId: string, erased = false): Promise<void> {
    const key = `${queueName}\0${encodedId}`;
    if ((!erased && !this.pendingRemovals.has(key)) || this.closed) return;
    try {
      if ((await this.queue(queueName).remove(encodedId)) === 1) this.pendingRemovals.delete(key);
    } catch (error) {
      this.onError(error);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The job queue is closed');
  }
}

function toBullBackoff(backoff: Backoff | undefined): BackoffOptions | undefined {
  if (!backoff) return undefined;
  if (backoff.type === 'fixed') return { type: 'fixed', delay: backoff.delayMs };
  // BullMQ's exponential is round(delay × 2^(attemptsMade−1)): equal to backoffDelay for whole milliseconds.
  if (backoff.type === 'exponential' && backoff.maxDelayMs === undefined && Number.isInteger(backoff.delayMs)) {
    return { type: 'exponential', delay: backoff.delayMs };
  }
  // Extra keys survive: BullMQ stores job options as JSON and hands them back to the strategy.
  return { type: PORT_BACKOFF, policy: backoff } as BackoffOptions;
}

/** BullMQ calls this with the 1-based retry number for backoff types it does not know. */
const portBackoffStrategy: BackoffStrategy = (attemptsMade, type, _error, job) => {
  if (type !== PORT_BACKOFF) throw new Error(`Unknown backoff type "${type}"`);
  const policy = (job?.opts.backoff as { policy?: Backoff } | undefined)?.policy;
  // Redis' cjson turns an empty array into {}; an empty schedule means no wait.
  if (policy?.type === 'schedule' && !Array.isArray(policy.delaysMs)) return 0;
  return Math.max(0, Math.ceil(backoffDelay(policy, attemptsMade)));
};

function toPortState(state: BullJobState | 'unknown'): JobState | undefined {
  switch (state) {
    case 'waiting':
    case 'prioritized':
    case 'waiting-children':
      return 'waiting';
    case 'delayed':
    case 'active':
    case 'completed':
    case 'failed':
      return state;
    case 'unknown':
      return undefined;
    default: {
      const _exhaustive: never = state;
      return _exhaustive;
    }
  }
}

function isErased(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as Record<string, unknown>).__jobQueueErased === true;
}

/**
 * BullMQ rejects custom ids that parse as integers or contain ':'. '%' escapes
 * itself and ':'; an integer-looking id gets a '%I' mark. Decoding is exact
 * because a literal '%' never survives unescaped.
 */
export function encodeJobId(id: string): string {
  const escaped = id.replace(/%/g, '%25').replace(/:/g, '%3A');
  return `${parseInt(escaped, 10)}` === escaped ? `%I${escaped}` : escaped;
}

export function decodeJobId(encoded: string): string {
  return encoded.replace(/%(25|3A|I)/g, (_match, code: string) => (code === '25' ? '%' : code === '3A' ? ':' : ''));
}
