import os from 'node:os';
import { openJobQueue } from '../index.js';
import { describeJobQueueContract } from '../job-queue.contract.js';
import { BullMqJobQueue } from './bullmq-job-queue.js';
import { Redis } from 'ioredis';
import { describeWith } from '../../testing/server-suites.js';

const redisUrl = process.env.REDIS_URL;

// Needs a real Redis: CI sets REDIS_URL; without it the suite is skipped, not faked.
const describeIf = describeWith('REDIS_URL', 'the BullMQ job-queue tests (bullmq-job-queue.int-spec)');

// A prefix per run keeps runs apart on a shared Redis and lets cleanup delete exactly this run's keys.
const prefix = `test-jq-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describeIf('BullMqJobQueue', () => {
  afterAll(() => deleteKeys(redisUrl!, `${prefix}:*`));

  describeJobQueueContract('BullMQ (Redis)', () => BullMqJobQueue.open({ redisUrl: redisUrl!, prefix }));

  it('is what openJobQueue gives when a Redis URL is set', async () => {
    const queue = await openJobQueue({ redisUrl: redisUrl!, dataDir: os.tmpdir() });
    try {
      expect(queue).toBeInstanceOf(BullMqJobQueue);
      await queue.ping();
    } finally {
      await queue.close();
    }
  });

  it('fails to open, with a clear error, when Redis cannot be reached', async () => {
    await expect(BullMqJobQueue.open({ redisUrl: 'redis://127.0.0.1:1' })).rejects.toThrow(/Redis is unreachable/);
  });

  it('erases a job that a worker in another process is running: it is not run again', async () => {
    const workerSide = await BullMqJobQueue.open({ redisUrl: redisUrl!, prefix });
    const removerSide = await BullMqJobQueue.open({ redisUrl: redisUrl!, prefix });
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    try {
      const runs: string[] = [];
      const running = new Promise<void>((started) => {
        workerSide.process('erase-remote', async (job) => {
          runs.push(job.id);
          if (job.id === 'victim') {
            started();
            await blocked;
            throw new Error('retried if the job were still there');
          }
        });
      });
      await removerSide.add('erase-remote', 'v', { secret: 1 }, { jobId: 'victim', attempts: 3 });
      await running;
      await removerSide.remove('erase-remote', 'victim');
      // Only the remover knows; the worker's process must not hand the retry to its handler.
      release();
      // The worker's process sees the retry come back erased and deletes the record.
      await until(async () => !(await keyExists(redisUrl!, `${prefix}:erase-remote:victim`)));
      await removerSide.add('erase-remote', 's', {}, { jobId: 'sentinel' });
      await until(async () => (await removerSide.getJob('erase-remote', 'sentinel'))?.state === 'completed');
      expect(runs).toEqual(['victim', 'sentinel']);
      expect(await removerSide.add('erase-remote', 'v', {}, { jobId: 'victim' })).toMatchObject({ added: true });
    } finally {
      release();
      await workerSide.close();
      await removerSide.close();
    }
  });

  it('keeps only the last N completed jobs', async () => {
    const queue = await BullMqJobQueue.open({ redisUrl: redisUrl!, prefix, keepCompleted: 2 });
    try {
      const done: string[] = [];
      queue.process('trim', async (job) => {
        done.push(job.id);
      });
      for (const id of ['a', 'b', 'c']) {
        await queue.add('trim', 'x', {}, { jobId: id });
        await until(async () => (await queue.getJob('trim', id))?.state === 'completed');
      }
      expect(done).toEqual(['a', 'b', 'c']);
      expect(await queue.getJob('trim', 'a')).toBeUndefined();
      expect((await queue.getJob('trim', 'c'))?.state).toBe('completed');
      expect(await queue.add('trim', 'x', {}, { jobId: 'a' })).toEqual({ id: 'a', added: true });
    } finally {
      await queue.close();
    }
  });
});

async function deleteKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function keyExists(url: string, key: string): Promise<boolean> {
  const redis = new Redis(url);
  try {
    return (await redis.exists(key)) === 1;
  } finally {
    redis.disconnect();
  }
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 8000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
