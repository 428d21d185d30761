import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DirectoryInUseError } from '../../locking/directory-lock.js';
import { openRateLimiter } from '../index.js';
import { describeRateLimiterContract } from '../rate-limiter.contract.js';
import { EmbeddedRateLimiter } from './embedded-rate-limiter.js';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rate-limits-embedded-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// A directory per limiter: the suite opens a second limiter beside the first, and a directory has one owner.
describeRateLimiterContract('embedded (journaled to LMDB)', () => EmbeddedRateLimiter.open(freshDir()));

describe('EmbeddedRateLimiter', () => {
  const DAY = 86_400_000;
  const quota = { limit: 100, windowMs: DAY };
  const t0 = Date.parse('2025-03-01T00:00:30Z');

  it('is what openRateLimiter gives without a Redis URL, under <dataDir>/rate-limits', async () => {
    const dataDir = freshDir();
    const opened = await openRateLimiter({ dataDir });
    try {
      expect(opened).toBeInstanceOf(EmbeddedRateLimiter);
      expect(existsSync(path.join(dataDir, 'rate-limits'))).toBe(true);
    } finally {
      await opened.close();
    }
  });

  it('finds after reopening every count, bucket and reset it had', async () => {
    const dir = freshDir();
    const throttle = { limit: 15, windowMs: 60_000 };
    let limiter = await EmbeddedRateLimiter.open(dir);
    for (let i = 0; i < 100; i++) await limiter.consume('full', quota, new Date(t0 + i * 1000));
    for (let i = 0; i < 40; i++) await limiter.consume('spread', quota, new Date(t0 + i * 3_600_000 * 0.5));
    await limiter.consume('ip', throttle, new Date(t0));
    const before = await Promise.all([
      limiter.consume('full', quota, new Date(t0 + 3_600_000)),
      limiter.peek('spread', quota, new Date(t0 + 20 * 3_600_000)),
      limiter.peek('ip', throttle, new Date(t0 + 1000)),
    ]);
    expect(before[0]).toMatchObject({ allowed: false, remaining: 0 });
    await limiter.close();

    limiter = await EmbeddedRateLimiter.open(dir);
    try {
      expect(
        await Promise.all([
          limiter.consume('full', quota, new Date(t0 + 3_600_000)),
          limiter.peek('spread', quota, new Date(t0 + 20 * 3_600_000)),
          limiter.peek('ip', throttle, new Date(t0 + 1000)),
        ]),
      ).toEqual(before);
      // And the window goes on rolling from there: the 30 of the first minute leave 24 h after the latest of them.
      expect(await limiter.peek('full', quota, new Date(t0 + 29_000 + DAY - 1))).toMatchObject({ allowed: false, remaining: 0 });
      expect(await limiter.consume('full', quota, new Date(t0 + 29_000 + DAY))).toMatchObject({ allowed: true, remaining: 29 });
    } finally {
      await limiter.close();
    }
  });

  it('does not bring back what was reset, evicted or started over', async () => {
    const dir = freshDir();
    let limiter = await EmbeddedRateLimiter.open(dir);
    await limiter.consume('reset', quota, new Date(t0));
    await limiter.consume('evicted', { limit: 5, windowMs: 60_000 }, new Date(t0));
    await limiter.consume('rewindowed', quota, new Date(t0));
    await limiter.flush();
    await limiter.reset('reset');
    await limiter.peek('other', quota, new Date(t0 + 60_000));
    expect(limiter.sweep()).toBe(1);
    await limiter.consume('rewindowed', { limit: 100, windowMs: 3_600_000 }, new Date(t0 + 1000));
    await limiter.close();

    limiter = await EmbeddedRateLimiter.open(dir);
    try {
      expect(limiter.keyCount).toBe(1);
      expect(await limiter.peek('reset', quota, new Date(t0))).toMatchObject({ remaining: 100 });
      expect(await limiter.peek('rewindowed', { limit: 100, windowMs: 3_600_000 }, new Date(t0 + 1000))).toMatchObject({ remaining: 99 });
    } finally {
      await limiter.close();
    }
  });

  it('deletes from the journal the buckets that have left the window', async () => {
    const dir = freshDir();
    const throttle = { limit: 1000, windowMs: 60_000 };
    let limiter = await EmbeddedRateLimiter.open(dir);
    // One request every 10 s for 10 minutes: at most seven 42 ms buckets are inside a minute at any time.
    for (let i = 0; i <= 60; i++) await limiter.consume('ip', throttle, new Date(t0 + i * 10_000));
    await limiter.close();
    limiter = await EmbeddedRateLimiter.open(dir);
    try {
      expect(limiter.bucketCount('ip')).toBeLessThanOrEqual(7);
    } finally {
      await limiter.close();
    }
  });

  it('commits counts in batches, without the caller waiting', async () => {
    const dir = freshDir();
    const limiter = await EmbeddedRateLimiter.open(dir, { flushIntervalMs: 60_000 });
    try {
      for (let i = 0; i < 10; i++) await limiter.consume('k', quota, new Date(t0));
      // Nothing is committed yet: the interval is a minute, and consume did not wait for a commit.
      const reader = await import('lmdb').then(({ open }) => open({ path: dir, readOnly: true }));
      try {
        expect([...reader.openDB({ name: 'buckets' }).getKeys()]).toEqual([]);
        await limiter.flush();
        expect([...reader.openDB({ name: 'buckets' }).getRange()].map(({ value }) => value)).toEqual([[10, t0, DAY]]);
      } finally {
        await reader.close();
      }
    } finally {
      await limiter.close();
    }
  });

  it('refuses a directory another limiter has open', async () => {
    const dir = freshDir();
    const limiter = await EmbeddedRateLimiter.open(dir);
    try {
      await expect(EmbeddedRateLimiter.open(dir)).rejects.toBeInstanceOf(DirectoryInUseError);
    } finally {
      await limiter.close();
    }
  });

  describe('a process killed with SIGKILL', () => {
    it('keeps every committed count, and loses at most the counts of the last flush interval', async () => {
      const dir = freshDir();
      const child = spawnLimiterChild(dir, 'quota:key', 250, 7);
      await child.waitFor('counted');
      child.kill();
      await child.exited;

      const limiter = await EmbeddedRateLimiter.open(dir);
      try {
        const { remaining } = await limiter.peek('quota:key', { limit: 1_000_000, windowMs: DAY });
        const used = 1_000_000 - remaining;
        expect(used).toBeGreaterThanOrEqual(250);
        expect(used).toBeLessThanOrEqual(257);
      } finally {
        await limiter.close();
      }
    });

    it('loses nothing once the flush interval has passed', async () => {
      const dir = freshDir();
      const child = spawnLimiterChild(dir, 'quota:key', 250, 7);
      await child.waitFor('counted');
      await new Promise((resolve) => setTimeout(resolve, 250)); // five times the default interval
      child.kill();
      await child.exited;

      const limiter = await EmbeddedRateLimiter.open(dir);
      try {
        expect(await limiter.peek('quota:key', { limit: 1_000_000, windowMs: DAY })).toMatchObject({ remaining: 1_000_000 - 257 });
      } finally {
        await limiter.close();
      }
    });
  });
});

const register = fileURLToPath(new URL('../../testing/register-ts.mjs', import.meta.url));
const childScript = fileURLToPath(new URL('./testing/limiter-child.ts', import.meta.url));

function spawnLimiterChild(dir: string, key: string, committed: number, extra: number) {
  const proc = spawn(process.execPath, ['--import', register, childScript, dir, key, String(committed), String(extra)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => proc.once('close', () => resolve()));
  return {
    exited,
    kill: () => proc.kill('SIGKILL'),
    async waitFor(line: string): Promise<void> {
      const deadline = Date.now() + 10_000;
      while (!stdout.split('\n').includes(line)) {
        if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`child never printed ${line}; stderr:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };
}
