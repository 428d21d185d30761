import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReporterHash } from './reporter-hash.js';

const KEY = Uint8Array.from({ length: 32 }, (_, i) => i);

describe('ReporterHash', () => {
  // Stored events (HazardReported, LandmarkReported) hold these: the figures were made by the two copies this class replaced.
  it.each([
    ['traffic-reporter', '203.0.113.7', '33c3fedc386d0a737100748403e705c3'],
    ['traffic-reporter', '2001:db8::1', '04dfd45a48187c25711a93b2169fb567'],
    ['landmark-reporter', '203.0.113.7', '3f10ad20b28bf1decaf816dd1a2b4ebd'],
    ['landmark-reporter', '2001:db8::1', 'f21ad14c0f553543e40e83f19adf3124'],
  ])('%s hashes %s as before', (purpose, ip, expected) => {
    expect(ReporterHash.fromKey(KEY, purpose).of(ip)).toBe(expected);
  });

  it('refuses a key of the wrong size', () => {
    expect(() => ReporterHash.fromKey(new Uint8Array(16), 'traffic-reporter')).toThrow('32 bytes');
  });

  describe('from DATA_DIR', () => {
    let dataDir: string;
    beforeEach(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'reporter-hash-'));
    });
    afterEach(async () => {
      await rm(dataDir, { recursive: true, force: true });
    });

    it('creates the key once; instances starting together agree on it', async () => {
      const file = path.join('secrets', 'x-reporter.key');
      const [a, b] = await Promise.all([ReporterHash.fromDataDir(dataDir, file, 'x'), ReporterHash.fromDataDir(dataDir, file, 'x')]);
      expect(a.of('198.51.100.1')).toBe(b.of('198.51.100.1'));
      const key = Buffer.from((await readFile(path.join(dataDir, file), 'utf8')).trim(), 'hex');
      expect(ReporterHash.fromKey(key, 'x').of('198.51.100.1')).toBe(a.of('198.51.100.1'));
    });

    it('refuses a key file that is not 32 hex bytes', async () => {
      await mkdir(path.join(dataDir, 'secrets'));
      await writeFile(path.join(dataDir, 'secrets', 'bad.key'), 'not a key');
      await expect(ReporterHash.fromDataDir(dataDir, path.join('secrets', 'bad.key'), 'x')).rejects.toThrow('does not hold a 32-byte hex key');
    });
  });
});
