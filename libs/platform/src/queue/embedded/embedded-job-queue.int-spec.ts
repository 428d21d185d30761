import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { openJobQueue } from '../index.js';
import { describeJobQueueContract } from '../job-queue.contract.js';
import type { Job } from '../job-queue.port.js';
import { EmbeddedJobQueue, QueueDirectoryInUseError } from './embedded-job-queue.js';
import { spawnQueueChild } from './testing/spawn-queue-child.js';

const contractDir = mkdtempSync(path.join(os.tmpdir(), 'job-queue-contract-'));

describeJobQueueContract(
  'embedded (LMDB)',
  () => EmbeddedJobQueue.open(contractDir),
  async () => rmSync(contractDir, { recursive: true, force: true }),
);

describe('EmbeddedJobQueue', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'job-queue-embedded-'));
    dirs.push(dir);
    return dir;
  };

  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps only the last N completed jobs; a trimmed id can be added again', async () => {
    const dir = freshDir();
    const queue = await EmbeddedJobQueue.open(dir, { keepCompleted: 2 });
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
      expect((await queue.getJob('trim', 'b'))?.state).toBe('completed');
      expect((await queue.getJob('trim', 'c'))?.state).toBe('completed');
      expect(await queue.add('trim', 'x', {}, { jobId: 'b' })).toEqual({ id: 'b', added: false });
      expect(await queue.add('trim', 'x', {}, { jobId: 'a' })).toEqual({ id: 'a', added: true });
    } finally {
      await queue.close();
    }
  });

  it('frees the id of a job removed while running once the run ends, and drops its outcome', async () => {
    const dir = freshDir();
    const queue = await EmbeddedJobQueue.open(dir);
    try {
      const runs: Array<[number, number]> = [];
      let releaseFirst!: () => void;
      const firstRunning = new Promise<void>((started) => {
        queue.process<{ v: number }>('erase', async (job) => {
          runs.push([job.data.v, job.attemptsMade]);
          if (job.data.v === 1) {
            started();
            await new Promise<void>((release) => (releaseFirst = release));
            throw new Error('outcome of a removed job'); // would count as attempt 1 if it were kept
          }
        });
      });
      await queue.add('erase', 'x', { v: 1 }, { jobId: 'same', attempts: 2 });
      await firstRunning;
      await queue.remove('erase', 'same');
      releaseFirst();

      await until(async () => (await queue.add('erase', 'x', { v: 2 }, { jobId: 'same' })).added);
      await until(async () => (await queue.getJob('erase', 'same'))?.state === 'completed');
      expect(runs).toEqual([
        [1, 0],
        [2, 0],
      ]);
      expect(await queue.getJob('erase', 'same')).toMatchObject({ data: { v: 2 }, attemptsMade: 1 });
    } finally {
      await queue.close();
    }
  });

  it('is what openJobQueue gives without a Redis URL, under <dataDir>/queue', async () => {
    const dataDir = freshDir();
    const queue = await openJobQueue({ dataDir });
    try {
      expect(queue).toBeInstanceOf(EmbeddedJobQueue);
      expect(existsSync(path.join(dataDir, 'queue'))).toBe(true);
    } finally {
      await queue.close();
    }
  });

  it('refuses a directory that is already open in this process', async () => {
    const dir = freshDir();
    const queue = await EmbeddedJobQueue.open(dir);
    try {
      await expect(EmbeddedJobQueue.open(dir)).rejects.toBeInstanceOf(QueueDirectoryInUseError);
    } finally {
      await queue.close();
    }
  });

  describe('a process killed with SIGKILL while running a job', () => {
    it('refuses the directory while that process lives, then runs the job again after reopening', async () => {
      const dir = freshDir();
      const setup = await EmbeddedJobQueue.open(dir);
      const { id } = await setup.add('mail', 'send', { to: 'a@example.com' }, { attempts: 2 });
      await setup.close();

      const child = spawnQueueChild(dir, 'mail');
      await child.waitForLine(new RegExp(`^running ${id} 0$`));
      await expect(EmbeddedJobQueue.open(dir)).rejects.toBeInstanceOf(QueueDirectoryInUseError);
      await child.kill();

      const queue = await EmbeddedJobQueue.open(dir);
      try {
        expect((await queue.getJob('mail', id))?.state).toBe('waiting');
        const runs: Job[] = [];
        queue.process('mail', async (job) => {
          runs.push(job);
        });
        await until(async () => (await queue.getJob('mail', id))?.state === 'completed');
        // The killed run is not a finished attempt: the retry budget is untouched.
        expect(runs).toEqual([{ id, queue: 'mail', name: 'send', data: { to: 'a@example.com' }, attemptsMade: 0 }]);
      } finally {
        await queue.close();
      }
    });

    it('refuses a second process while the first lives, naming it', async () => {
      const dir = freshDir();
      const child = spawnQueueChild(dir, 'idle');
      await child.waitForLine(/^ready$/);
      try {
        // Two processes must never share the directory: each would claim the other's jobs as stranded.
        await expect(EmbeddedJobQueue.open(dir)).rejects.toMatchObject({ name: 'QueueDirectoryInUseError', pid: child.pid });
      } finally {
        await child.kill();
      }
    });

    it('opens at once after its owner is SIGKILLed, before the dead process has been reaped', async () => {
      const dir = freshDir();
      const child = spawnQueueChild(dir, 'idle');
      await child.waitForLine(/^ready$/);
      process.kill(child.pid, 'SIGKILL');
      // Without yielding to the event loop, so Node cannot reap it: the pid stays taken by a zombie,
      // as when a supervisor restarts the service before the old process is collected.
      waitUntilZombie(child.pid);
      const opening = EmbeddedJobQueue.open(dir);
      try {
        await expect(opening).resolves.toBeInstanceOf(EmbeddedJobQueue);
      } finally {
        await (await opening.catch(() => undefined))?.close();
        await child.kill();
      }
    });

    it('is not kept from starting by an owner record naming a live, unrelated process', async () => {
      const dir = freshDir();
      const setup = await EmbeddedJobQueue.open(dir);
      const { id } = await setup.add('mail', 'send', {});
      await setup.close();
      // What a crashed build before the directory lock left behind, its pid now reused: pid 1 is always alive.
      const raw = open({ path: dir });
      await raw.openDB({ name: 'meta' }).put('owner', { pid: 1, host: os.hostname() });
      await raw.close();

      const queue = await EmbeddedJobQueue.open(dir);
      try {
        expect((await queue.getJob('mail', id))?.state).toBe('waiting');
      } finally {
        await queue.close();
      }
    });

    it('fails a job that was running in two crashed processes instead of looping', async () => {
      const dir = freshDir();
      const setup = await EmbeddedJobQueue.open(dir);
      const { id } = await setup.add('poison', 'crash', {});
      await setup.close();

      for (let crash = 0; crash < 2; crash++) {
        const child = spawnQueueChild(dir, 'poison');
        await child.waitForLine(new RegExp(`^running ${id} 0$`));
        await child.kill();
      }

      const queue = await EmbeddedJobQueue.open(dir);
      try {
        expect(await queue.getJob('poison', id)).toMatchObject({
          state: 'failed',
          failedReason: 'job stalled more than allowable limit',
        });
      } finally {
        await queue.close();
      }
    });
  });
});

/** Busy-waits (no await) until `pid` is a zombie: dead, its descriptors closed, not yet reaped. */
function waitUntilZombie(pid: number): void {
  const deadline = Date.now() + 5000;
  for (;;) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the parenthesised command name, which may itself contain spaces.
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return;
    if (Date.now() > deadline) throw new Error(`process ${pid} did not die`);
  }
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 8000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
