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
      const refused = DirectoryLock.acquire(root, 'Rate-limit directory');
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

  describe('as a socket file (macOS)', () => {
    it('replaces the file a killed holder left, and refuses while a holder listens', async () => {
      const { path: socket, file } = lockAddress(root, 'darwin');
      expect(file).toBe(true);
      // A holder that dies without closing: its socket file stays behind.
      const holder = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(socket)}, () => console.log('ready'))`], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
      await expect(DirectoryLock.acquire(root, undefined, 'darwin')).rejects.toMatchObject({ name: 'DirectoryInUseError', pid: undefined });
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
      expect(existsSync(socket)).toBe(true);

      const lock = await DirectoryLock.acquire(root, undefined, 'darwin');
      try {
        await expect(DirectoryLock.acquire(root, undefined, 'darwin')).rejects.toMatchObject({ pid: process.pid });
      } finally {
        await lock.release();
        rmSync(socket, { force: true });
      }
    });
  });
});
