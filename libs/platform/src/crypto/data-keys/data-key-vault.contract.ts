/**
 * The contract every DataKeyVault adapter passes (style.md, "Tests").
 * Globals come from @jest/globals so this file compiles in the production build.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { DataKeyVault } from './data-key-vault.port.js';

export function describeDataKeyVaultContract(name: string, open: () => Promise<DataKeyVault>, openSecond: () => Promise<DataKeyVault>): void {
  describe(`DataKeyVault contract: ${name}`, () => {
    let vault: DataKeyVault;
    let other: DataKeyVault;
    const subject = () => `acct-${randomBytes(4).toString('hex')}:customer-${randomBytes(4).toString('hex')}`;

    beforeAll(async () => {
      vault = await open();
      other = await openSecond();
    });
    afterAll(async () => {
      await vault?.close();
      await other?.close();
    });

    it('creates a 32-byte key once and answers the same key afterwards, also to another instance', async () => {
      const s = subject();
      const first = await vault.obtain(s);
      expect(first.key).toHaveLength(32);
      expect(await vault.obtain(s)).toEqual(first);
      expect(await other.obtain(s)).toEqual(first);
      expect(await other.find(s, first.id)).toEqual(first);
    });

    it('gives different subjects different keys', async () => {
      const [a, b] = await Promise.all([vault.obtain(subject()), vault.obtain(subject())]);
      expect(a.id).not.toBe(b.id);
      expect(a.key.equals(b.key)).toBe(false);
    });

    it('converges on one key when many callers in two instances create it at once', async () => {
      const s = subject();
      const keys = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? vault : other).obtain(s)));
      const ids = new Set(keys.map((key) => key.id));
      expect(ids.size).toBe(1);
      expect(new Set(keys.map((key) => key.key.toString('hex'))).size).toBe(1);
    });

    it('finds nothing for a wrong key id or an unknown subject', async () => {
      const s = subject();
      const key = await vault.obtain(s);
      expect(await vault.find(s, `${key.id}x`)).toBeUndefined();
      expect(await vault.find(subject(), key.id)).toBeUndefined();
    });

    it('destroys a key; a later obtain makes a new, different key', async () => {
      const s = subject();
      const key = await vault.obtain(s);
      await vault.destroy(s);
      expect(await vault.find(s, key.id)).toBeUndefined();
      const fresh = await vault.obtain(s);
      expect(fresh.id).not.toBe(key.id);
      expect(fresh.key.equals(key.key)).toBe(false);
      await vault.destroy(s);
      await vault.destroy(s);
      expect(await vault.find(s, fresh.id)).toBeUndefined();
    });

    it('lets concurrent destroys of one key all succeed (two erasure requests at once)', async () => {
      const s = subject();
      const key = await vault.obtain(s);
      await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? vault : other).destroy(s)));
      expect(await vault.find(s, key.id)).toBeUndefined();
    });
  });
}
