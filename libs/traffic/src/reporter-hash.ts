import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const TRAFFIC_REPORTER_KEY_FILE = path.join('secrets', 'traffic-reporter.key');

/**
 * Who reported a hazard, without storing who: HMAC-SHA-256 of the client IP
 * under a key generated once into DATA_DIR (as landmark reports, ADR 13).
 * Distinct hashes are distinct corroborating reporters.
 */
export class ReporterHash {
  constructor(private readonly key: Buffer) {}

  static async fromDataDir(dataDir: string): Promise<ReporterHash> {
    const file = path.join(dataDir, TRAFFIC_REPORTER_KEY_FILE);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      await writeFile(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    for (let attempt = 0; attempt < 20; attempt++) {
      const text = (await readFile(file, 'utf8')).trim();
      if (/^[0-9a-f]{64}$/.test(text)) return new ReporterHash(Buffer.from(text, 'hex'));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${TRAFFIC_REPORTER_KEY_FILE} does not hold a 32-byte hex key`);
  }

  of(ip: string): string {
    return createHmac('sha256', this.key).update(`traffic-reporter:${ip}`, 'utf8').digest('hex').slice(0, 32);
  }
}
