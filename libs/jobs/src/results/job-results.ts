import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SealedSecretError, SecretBox, type DataKeyVault } from '../../../platform/src/index.js';

/** How long a finished job's result is kept (the answer's `result.expires_at`). */
export const JOB_RESULT_RETENTION_MS = 7 * 24 * 3_600_000;

/** The first line of a sealed result file. */
const SEALED_FORMAT = 'job-result-sealed/1';
/** A sealed file's header line is far shorter than this (a key id and a sealed vault subject). */
const HEADER_MAX_BYTES = 4096;

interface SealedHeader {
  format: typeof SEALED_FORMAT;
  /** The id of the customer's data key the result is sealed under. */
  key_id: string;
  /** The key's vault subject (`<account>:<customer>`), sealed under the deployment's SecretBox: the file does not name the customer. */
  subject: string;
}

/** A result as the api reads it. */
export type StoredResult =
  /** A plain result: the envelope's bytes as the worker wrote them. */
  | { state: 'plain'; stream: ReadStream }
  /** A sealed result, opened: the envelope's bytes. */
  | { state: 'opened'; bytes: Buffer }
  /** A sealed result whose customer's key is gone: it will never open again. */
  | { state: 'erased' }
  /** Nothing kept (swept, or never written). */
  | { state: 'none' };

/**
 * Results of finished jobs, one file each under `DATA_DIR/jobs/<account>/`,
 * written by the worker that ran the job (write to a temporary name, then
 * rename: a reader sees a whole file or none) and read by the api, which
 * shares DATA_DIR with it. Past its retention a result is refused, and the
 * worker's sweep deletes it.
 *
 * - `<job>.json`: the answer's whole envelope, as it is.
 * - `<job>.sealed` (a result made from one customer's data, docs/adr/0068): a
 *   header line `{format, key_id, subject}` (the vault subject sealed under
 *   the deployment's SecretBox, bound to the account and job), then the
 *   envelope sealed (AES-256-GCM, bound to the account and job) under the
 *   customer's data key from the DataKeyVault. Destroying that key (the
 *   customer's erasure) makes the file unreadable wherever a copy of it is.
 */
export class JobResults {
  readonly root: string;

  constructor(
    dataDir: string,
    private readonly vault: DataKeyVault,
    private readonly box: SecretBox,
  ) {
    this.root = path.join(dataDir, 'jobs');
  }

  private file(accountId: string, jobId: string, sealed = false): string {
    return path.join(this.root, accountId, `${jobId}.${sealed ? 'sealed' : 'json'}`);
  }

  async write(accountId: string, jobId: string, envelope: Buffer): Promise<number> {
    await this.place(this.file(accountId, jobId), envelope);
    return envelope.byteLength;
  }

  /**
   * Seals the envelope under the subject's key `keyId` and writes it; answers
   * the envelope's size, or undefined (nothing written) when that key no
   * longer exists: the customer was erased.
   */
  async writeSealed(accountId: string, jobId: string, envelope: Buffer, subject: string, keyId: string): Promise<number | undefined> {
    const key = await this.vault.find(subject, keyId);
    if (!key) return undefined;
    const header: SealedHeader = { format: SEALED_FORMAT, key_id: keyId, subject: this.box.seal(subject, subjectContext(accountId, jobId)) };
    const sealed = SecretBox.fromKey(key.key).seal(envelope, resultContext(accountId, jobId));
    await this.place(this.file(accountId, jobId, true), Buffer.from(`${JSON.stringify(header)}\n${sealed}`, 'utf8'));
    return envelope.byteLength;
  }

  /** True when the job's result was sealed under a customer's key that is gone (read from the header line only). */
  async erased(accountId: string, jobId: string): Promise<boolean> {
    const header = await this.header(accountId, jobId);
    return header !== undefined && (await this.keyOf(accountId, jobId, header)) === undefined;
  }

  /** The stored result, opened when it is sealed and its key is still there. */
  async read(accountId: string, jobId: string): Promise<StoredResult> {
    const sealedFile = this.file(accountId, jobId, true);
    const text = await readFile(sealedFile, 'utf8').catch(() => undefined);
    if (text !== undefined) {
      const newline = text.indexOf('\n');
      const header = parseHeader(text.slice(0, newline));
      const key = header && (await this.keyOf(accountId, jobId, header));
      if (!key) return { state: 'erased' };
      try {
        return { state: 'opened', bytes: SecretBox.fromKey(key.key).openBytes(text.slice(newline + 1), resultContext(accountId, jobId)) };
      } catch (error) {
        // Altered, or sealed for another job: unreadable as well.
        if (error instanceof SealedSecretError) return { state: 'erased' };
        throw error;
      }
    }
    const file = this.file(accountId, jobId);
    try {
      await stat(file);
    } catch {
      return { state: 'none' };
    }
    return { state: 'plain', stream: createReadStream(file) };
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

  private async place(target: string, bytes: Buffer): Promise<void> {
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, target);
  }

  private async header(accountId: string, jobId: string): Promise<SealedHeader | undefined> {
    let handle;
    try {
      handle = await open(this.file(accountId, jobId, true), 'r');
    } catch {
      return undefined;
    }
    try {
      const buffer = Buffer.alloc(HEADER_MAX_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEADER_MAX_BYTES, 0);
      const text = buffer.subarray(0, bytesRead).toString('utf8');
      const newline = text.indexOf('\n');
      // A file without a whole header line is not one this class wrote: it opens to nothing.
      return parseHeader(newline < 0 ? '' : text.slice(0, newline)) ?? { format: SEALED_FORMAT, key_id: '', subject: '' };
    } finally {
      await handle.close();
    }
  }

  /** The customer's key the header names, or undefined when it is gone (or the header does not open). */
  private async keyOf(accountId: string, jobId: string, header: SealedHeader) {
    let subject: string;
    try {
      subject = this.box.open(header.subject, subjectContext(accountId, jobId));
    } catch (error) {
      if (error instanceof SealedSecretError) return undefined;
      throw error;
    }
    return this.vault.find(subject, header.key_id);
  }
}

function parseHeader(line: string): SealedHeader | undefined {
  try {
    const header = JSON.parse(line) as Partial<SealedHeader>;
    return header.format === SEALED_FORMAT && typeof header.key_id === 'string' && typeof header.subject === 'string' ? (header as SealedHeader) : undefined;
  } catch {
    return undefined;
  }
}

const subjectContext = (accountId: string, jobId: string) => `job-result-subject|${accountId}|${jobId}`;
const resultContext = (accountId: string, jobId: string) => `job-result|${accountId}|${jobId}`;
