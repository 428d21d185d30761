import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createReadStream, type ReadStream } from 'node:fs';
import path from 'node:path';

/** How long a finished job's result is kept (the answer's `result.expires_at`). */
export const JOB_RESULT_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * Results of finished jobs, one file each under `DATA_DIR/jobs/<account>/`,
 * written by the worker that ran the job (write to a temporary name, then
 * rename: a reader sees a whole file or none) and read by the api, which
 * shares DATA_DIR with it. Each file is the answer's whole envelope.
 * Past its retention a result is refused, and the worker's sweep deletes it.
 */
export class JobResults {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'jobs');
  }

  private file(accountId: string, jobId: string): string {
    return path.join(this.root, accountId, `${jobId}.json`);
  }

  async write(accountId: string, jobId: string, envelope: Buffer): Promise<number> {
    const target = this.file(accountId, jobId);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, envelope);
    await rename(temporary, target);
    return envelope.byteLength;
  }

  /** The stored envelope, or undefined when it is gone (swept). */
  async open(accountId: string, jobId: string): Promise<ReadStream | undefined> {
    const file = this.file(accountId, jobId);
    try {
      await stat(file);
    } catch {
      return undefined;
    }
    return createReadStream(file);
  }

  /** Deletes results older than the retention (by the file's time: the job finished when it was written). */
  async sweep(now: Date): Promise<number> {
    let removed = 0;
    let accounts: string[];
    try {
      accounts = await readdir(this.root);
    } catch {
      return 0;
    }
    for (const account of accounts) {
      const folder = path.join(this.root, account);
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const file = path.join(folder, name);
        const info = await stat(file).catch(() => undefined);
        if (info && now.getTime() - info.mtimeMs > JOB_RESULT_RETENTION_MS) {
          await rm(file, { force: true });
          removed++;
        }
      }
    }
    return removed;
  }
}
