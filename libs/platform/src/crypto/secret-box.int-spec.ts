import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DATA_ENCRYPTION_KEY_FILE, InvalidEncryptionKeyError, SecretBox } from './secret-box.js';

describe('SecretBox key file under DATA_DIR', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'secret-box-'));
    dirs.push(dir);
    return dir;
  };

  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('generates the key on first start, mode 0600, and reuses it afterwards', async () => {
    const dataDir = freshDir();
    const file = path.join(dataDir, 'secrets', 'data-encryption.key');
    expect(path.join(dataDir, DATA_ENCRYPTION_KEY_FILE)).toBe(file);

    const first = await SecretBox.fromConfig({ dataDir });
    const sealed = first.seal('webhook secret', 'wh-1');
    const stored = readFileSync(file, 'utf8');
    expect(Buffer.from(stored.trim(), 'base64')).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(['data-encryption.key']);

    const restarted = await SecretBox.fromConfig({ dataDir });
    expect(restarted.open(sealed, 'wh-1')).toBe('webhook secret');
    expect(readFileSync(file, 'utf8')).toBe(stored);
  });

  it('gives every racing starter the same key and leaves no temp files', async () => {
    const dataDir = freshDir();
    const boxes = await Promise.all(Array.from({ length: 8 }, () => SecretBox.fromConfig({ dataDir })));
    const sealed = boxes[3].seal('shared');
    for (const box of boxes) expect(box.open(sealed)).toBe('shared');
    expect(readdirSync(path.join(dataDir, 'secrets'))).toEqual(['data-encryption.key']);
  });

  it('prefers DATA_ENCRYPTION_KEY and then leaves DATA_DIR alone', async () => {
    const dataDir = freshDir();
    const key = randomBytes(32);
    const box = await SecretBox.fromConfig({ dataDir, dataEncryptionKey: key.toString('base64') });
    expect(SecretBox.fromKey(key).open(box.seal('x'))).toBe('x');
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a damaged key file instead of replacing it', async () => {
    const dataDir = freshDir();
    mkdirSync(path.join(dataDir, 'secrets'));
    const file = path.join(dataDir, DATA_ENCRYPTION_KEY_FILE);
    writeFileSync(file, 'truncated');
    await expect(SecretBox.fromConfig({ dataDir })).rejects.toBeInstanceOf(InvalidEncryptionKeyError);
    expect(readFileSync(file, 'utf8')).toBe('truncated');
  });
});
