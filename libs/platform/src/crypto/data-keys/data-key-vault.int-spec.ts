import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeWith, MONGO_TEST_VARIABLE } from '../../testing/server-suites.js';
import { SecretBox } from '../secret-box.js';
import { describeDataKeyVaultContract } from './data-key-vault.contract.js';
import { EmbeddedDataKeyVault } from './embedded-data-key-vault.js';
import { MongoDataKeyVault } from './mongodb-data-key-vault.js';
import { subjectHash } from './subject-hash.js';

const box = SecretBox.fromKey(randomBytes(32));
const dataDir = mkdtempSync(path.join(tmpdir(), 'data-keys-'));

// Two vaults on one folder stand for two processes: neither sees the other's cache.
describeDataKeyVaultContract(
  'embedded',
  () => EmbeddedDataKeyVault.open(dataDir, box),
  () => EmbeddedDataKeyVault.open(dataDir, box),
);

describe('EmbeddedDataKeyVault on disk', () => {
  it('files keys by subject hash, wrapped, and leaves no file behind when destroyed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'data-keys-'));
    const vault = await EmbeddedDataKeyVault.open(dir, box);
    const subject = 'acct-1:customer-with-a-name';
    const key = await vault.obtain(subject);
    const files = readdirSync(path.join(dir, 'data-keys'));
    expect(files).toEqual([`${subjectHash(subject)}.key`]);
    const text = readFileSync(path.join(dir, 'data-keys', files[0]), 'utf8');
    expect(text).not.toContain('customer-with-a-name');
    expect(text).not.toContain(key.key.toString('base64'));
    expect(text).not.toContain(key.key.toString('hex'));
    await vault.destroy(subject);
    expect(readdirSync(path.join(dir, 'data-keys'))).toEqual([]);
    await vault.close();
  });

  it('refuses a key file moved to another subject (the wrap is bound to the file name)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'data-keys-'));
    const vault = await EmbeddedDataKeyVault.open(dir, box);
    const key = await vault.obtain('a:1');
    const { rename } = await import('node:fs/promises');
    await rename(path.join(dir, 'data-keys', `${subjectHash('a:1')}.key`), path.join(dir, 'data-keys', `${subjectHash('a:2')}.key`));
    const fresh = await EmbeddedDataKeyVault.open(dir, box);
    await expect(fresh.find('a:2', key.id)).rejects.toThrow();
    await vault.close();
    await fresh.close();
  });
});

const url = process.env[MONGO_TEST_VARIABLE];
const describeIf = describeWith(MONGO_TEST_VARIABLE, 'the MongoDB data-key vault contract (data-key-vault.int-spec)');
describeIf('MongoDataKeyVault', () => {
  const database = `data_keys_contract_${randomBytes(4).toString('hex')}`;
  describeDataKeyVaultContract(
    'mongodb',
    () => MongoDataKeyVault.open(url!, database, box),
    () => MongoDataKeyVault.open(url!, database, box),
  );
});
