import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where the reporter-hash key lives under DATA_DIR; every api instance mounts the same DATA_DIR (docs/adr/0011). */
export const REPORTER_KEY_FILE = path.join('secrets', 'landmark-reporter.key');
const KEY_BYTES = 32;
/** 128 bits of HMAC-SHA-256: plenty to tell reporters apart, and shorter in every event. */
const REPORTER_HEX_LENGTH = 32;

/**
 * Who reported, without storing who: HMAC-SHA-256 of the client IP under a
 * secret key generated once into DATA_DIR. A plain or publicly salted hash of
 * an IPv4 address is reversed by trying all 2^32; without the key nobody can.
 * The raw IP is never stored or logged (docs/adr/0013).
 */
export class ReporterIdentity {
  private constructor(private readonly key: Buffer) {}

  static fromKey(key: Uint8Array): ReporterIdentity {
    if (key.length !== KEY_BYTES) throw new Error(`a reporter key is ${KEY_BYTES} bytes`);
    return new ReporterIdentity(Buffer.from(key));
  }

  /** Reads the key, or creates it (exclusively, so two instances starting together agree on one). */
  static async fromDataDir(dataDir: string): Promise<ReporterIdentity> {
    const file = path.join(dataDir, REPORTER_KEY_FILE);
    try {
      return ReporterIdentity.fromKey(await readKey(file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      await writeFile(file, randomBytes(KEY_BYTES).toString('hex'), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return ReporterIdentity.fromKey(await readKey(file));
  }

  reporterOf(ip: string): string {
    return createHmac('sha256', this.key).update(`landmark-reporter:${ip}`, 'utf8').digest('hex').slice(0, REPORTER_HEX_LENGTH);
  }
}

async function readKey(file: string, attempts = 20): Promise<Buffer> {
  const text = (await readFile(file, 'utf8')).trim();
  // Another instance may be between creating and writing the file: an empty read is retried for a second.
  if (text === '' && attempts > 0) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return readKey(file, attempts - 1);
  }
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${REPORTER_KEY_FILE} does not hold a 32-byte hex key`);
  return Buffer.from(text, 'hex');
}
