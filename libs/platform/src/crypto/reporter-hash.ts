import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const KEY_BYTES = 32;
/** 128 bits of HMAC-SHA-256: plenty to tell reporters apart, and shorter in every event. */
const REPORTER_HEX_LENGTH = 32;

/**
 * Who reported, without storing who: HMAC-SHA-256 of `<purpose>:<client IP>`
 * under a secret key generated once into DATA_DIR (every api instance mounts
 * the same DATA_DIR, ADR 11). A plain or publicly salted hash of an IPv4
 * address is reversed by trying all 2^32; without the key nobody can. The raw
 * IP is never stored or logged (ADR 13, ADR 25). Each use keeps its own key
 * file and purpose (landmark reports, hazard reports), so one's hashes say
 * nothing about the other's; stored events hold these hashes, so the format
 * (purpose prefix, hex, 32 characters) never changes.
 */
export class ReporterHash {
  private constructor(
    private readonly key: Buffer,
    private readonly purpose: string,
  ) {}

  static fromKey(key: Uint8Array, purpose: string): ReporterHash {
    if (key.length !== KEY_BYTES) throw new Error(`a reporter key is ${KEY_BYTES} bytes`);
    return new ReporterHash(Buffer.from(key), purpose);
  }

  /** Reads `DATA_DIR/<keyFile>`, or creates it (exclusively, so two instances starting together agree on one key). */
  static async fromDataDir(dataDir: string, keyFile: string, purpose: string): Promise<ReporterHash> {
    const file = path.join(dataDir, keyFile);
    try {
      return ReporterHash.fromKey(await readKey(file, keyFile), purpose);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      await writeFile(file, randomBytes(KEY_BYTES).toString('hex'), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return ReporterHash.fromKey(await readKey(file, keyFile), purpose);
  }

  of(ip: string): string {
    return createHmac('sha256', this.key).update(`${this.purpose}:${ip}`, 'utf8').digest('hex').slice(0, REPORTER_HEX_LENGTH);
  }
}

async function readKey(file: string, name: string, attempts = 20): Promise<Buffer> {
  const text = (await readFile(file, 'utf8')).trim();
  // Another instance may be between creating and writing the file: an empty read is retried for a second.
  if (text === '' && attempts > 0) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return readKey(file, name, attempts - 1);
  }
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${name} does not hold a 32-byte hex key`);
  return Buffer.from(text, 'hex');
}
