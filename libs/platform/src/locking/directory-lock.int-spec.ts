import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DirectoryInUseError, DirectoryLock, lockAddress } from './directory-lock.js';

describe('DirectoryLock', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'directory-lock-'));
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('refuses a second hold, naming the holder, until the first is released', async () => {
    const lock = await DirectoryLock.acquire(root);
    try {
      const refused = DirectoryLock.acquire(root, { what: 'Rate-limit directory' });
      await expect(refused).rejects.toBeInstanceOf(DirectoryInUseError);
      await expect(refused).rejects.toMatchObject({ pid: process.pid, message: `Rate-limit directory ${root} is in use by process ${process.pid}` });
    } finally {
      await lock.release();
    }
    const again = await DirectoryLock.acquire(root);
    await again.release();
  });

  it('is one lock for every path to the directory, and separate locks for separate directories', async () => {
    const data = path.join(root, 'data');
    const other = path.join(root, 'other');
    mkdirSync(data);
    mkdirSync(other);
    symlinkSync(data, path.join(root, 'link'));
    const lock = await DirectoryLock.acquire(data);
    try {
      await expect(DirectoryLock.acquire(path.join(root, 'link'))).rejects.toBeInstanceOf(DirectoryInUseError);
      await expect(DirectoryLock.acquire(path.join(root, 'link', '..', 'data'))).rejects.toBeInstanceOf(DirectoryInUseError);
      const separate = await DirectoryLock.acquire(other);
      await separate.release();
    } finally {
      await lock.release();
    }
  });

  it('releases once however often it is asked to', async () => {
    const lock = await DirectoryLock.acquire(root);
    await Promise.all([lock.release(), lock.release()]);
    await expect(lock.release()).resolves.toBeUndefined();
  });

  describe('a holder that does not answer (being killed, or stopped)', () => {
    /** Holds `root`'s lock from a child process that accepts connections but never says who it is. */
    async function silentHolder() {
      const { path: address } = lockAddress(root);
      const holder = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(address)}, () => console.log('ready'))`], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
      const gone = new Promise((resolve) => holder.once('exit', resolve));
      return { kill: async () => (holder.kill('SIGKILL'), await gone) };
    }

    it('is waited for, and the directory taken as soon as it is gone', async () => {
      const holder = await silentHolder();
      const order: string[] = [];
      // The wait is far longer than the test may run: only the holder's exit can let the lock through.
      const acquiring = DirectoryLock.acquire(root, { waitMs: 3_600_000 }).then((lock) => (order.push('acquired'), lock));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(order).toEqual([]);
      await holder.kill();
      order.push('holder gone');
      const lock = await acquiring;
      await lock.release();
      expect(order).toEqual(['holder gone', 'acquired']);
    });

    it('refuses the directory once the wait is over', async () => {
      const holder = await silentHolder();
      try {
        await expect(DirectoryLock.acquire(root, { waitMs: 200 })).rejects.toMatchObject({ name: 'DirectoryInUseError', pid: undefined });
      } finally {
        await holder.kill();
      }
    });
  });

  describe('as a socket file (macOS)', () => {
    it('replaces the file a killed holder left, and refuses while a holder listens', async () => {
      const { path: socket, file } = lockAddress(root, 'darwin');
      expect(file).toBe(true);
      // A holder that dies without closing: its socket file stays behind.
      const holder = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(socket)}, () => console.log('ready'))`], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
      await expect(DirectoryLock.acquire(root, { platform: 'darwin', waitMs: 0 })).rejects.toMatchObject({ name: 'DirectoryInUseError', pid: undefined });
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
      expect(existsSync(socket)).toBe(true);

      const lock = await DirectoryLock.acquire(root, { platform: 'darwin', waitMs: 0 });
      try {
        await expect(DirectoryLock.acquire(root, { platform: 'darwin', waitMs: 0 })).rejects.toMatchObject({ pid: process.pid });
      } finally {
        await lock.release();
        rmSync(socket, { force: true });
      }
    });
  });
});
