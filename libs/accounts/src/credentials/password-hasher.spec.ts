import { describe, expect, it, jest } from '@jest/globals';
import bcrypt from 'bcryptjs';
import { bcryptInput, DEFAULT_BCRYPT_COST, PasswordHasher } from './password-hasher.js';

// Cost 4 (bcrypt's minimum) keeps the suite fast; the cost itself is asserted separately.
const hasher = new PasswordHasher({ cost: 4 });

describe('PasswordHasher', () => {
  it('hashes with bcrypt $2b$ at the configured cost and a fresh salt each time', async () => {
    const first = await hasher.hash('correct horse battery staple');
    const second = await hasher.hash('correct horse battery staple');
    expect(first).toMatch(/^\$2b\$04\$[./A-Za-z0-9]{53}$/);
    expect(second).not.toBe(first);
  });

  it('uses cost 12 unless told otherwise', () => {
    expect(DEFAULT_BCRYPT_COST).toBe(12);
    expect(new PasswordHasher().cost).toBe(12);
  });

  it.each([[3], [32], [4.5], [Number.NaN]])('refuses cost %p', (cost) => {
    expect(() => new PasswordHasher({ cost })).toThrow(RangeError);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hasher.hash('Tr0ub4dor&3');
    await expect(hasher.verify('Tr0ub4dor&3', hash)).resolves.toBe(true);
    await expect(hasher.verify('Tr0ub4dor&4', hash)).resolves.toBe(false);
    await expect(hasher.verify('tr0ub4dor&3', hash)).resolves.toBe(false);
    await expect(hasher.verify('', hash)).resolves.toBe(false);
  });

  it('verifies a hash made at another cost (the cost is read from the hash)', async () => {
    const hash = await new PasswordHasher({ cost: 5 }).hash('Tr0ub4dor&3');
    await expect(hasher.verify('Tr0ub4dor&3', hash)).resolves.toBe(true);
  });

  it.each([[''], ['not a hash'], ['$2b$04$short'], ['$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA']])(
    'answers false, not an error, for the stored hash %j',
    async (stored) => {
      await expect(hasher.verify('Tr0ub4dor&3', stored)).resolves.toBe(false);
    },
  );

  it('lets every character of a long passphrase count, past bcrypt\u2019s 72 bytes', async () => {
    const head = 'the quick brown fox jumps over the lazy dog and keeps on running far away'; // 73 bytes
    expect(Buffer.byteLength(head)).toBeGreaterThan(72);
    const hash = await hasher.hash(`${head} A`);
    await expect(hasher.verify(`${head} A`, hash)).resolves.toBe(true);
    // Plain bcrypt would accept this: the first 72 bytes are the same.
    await expect(hasher.verify(`${head} B`, hash)).resolves.toBe(false);
    expect(await bcrypt.compare(`${head} B`, await bcrypt.hash(`${head} A`, 4))).toBe(true);
  });

  it('counts multi-byte characters in bytes when deciding to pre-hash', () => {
    const short = 'é'.repeat(36); // 72 bytes: bcrypt reads all of it
    const long = 'é'.repeat(37); // 74 bytes
    expect(bcryptInput(short)).toBe(short);
    expect(bcryptInput(long)).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(bcryptInput(long)).not.toBe(bcryptInput('é'.repeat(38)));
  });

  it('matches the same characters whether typed composed or decomposed (NFC)', async () => {
    const hash = await hasher.hash('Ad\u00e9la\u00efde 2 Kumasi');
    await expect(hasher.verify('Ade\u0301lai\u0308de 2 Kumasi', hash)).resolves.toBe(true);
  });

  describe('needsRehash', () => {
    it('is false for a hash made by the same settings', async () => {
      expect(hasher.needsRehash(await hasher.hash('Tr0ub4dor&3'))).toBe(false);
    });

    it('is true for another cost, higher or lower', async () => {
      expect(hasher.needsRehash(await bcrypt.hash('x', 5))).toBe(true);
      expect(new PasswordHasher({ cost: 5 }).needsRehash(await bcrypt.hash('x', 4))).toBe(true);
    });

    it('is true for the $2a$ and $2y$ variants and for anything that is not bcrypt', async () => {
      const hash = await hasher.hash('Tr0ub4dor&3');
      expect(hasher.needsRehash(hash.replace('$2b$', '$2a$'))).toBe(true);
      expect(hasher.needsRehash(hash.replace('$2b$', '$2y$'))).toBe(true);
      expect(hasher.needsRehash('plain text')).toBe(true);
    });
  });

  describe('verifyAgainstDummy', () => {
    it('always answers false', async () => {
      await expect(hasher.verifyAgainstDummy('Tr0ub4dor&3')).resolves.toBe(false);
      await expect(hasher.verifyAgainstDummy('')).resolves.toBe(false);
    });

    it('runs a real bcrypt comparison at the configured cost', async () => {
      // Observed through bcryptjs itself rather than by timing: the dummy hash it compares against has our cost.
      const compare = jest.spyOn(bcrypt, 'compare');
      try {
        await new PasswordHasher({ cost: 5 }).verifyAgainstDummy('Tr0ub4dor&3');
        expect(compare).toHaveBeenCalledTimes(1);
        const [, dummy] = compare.mock.calls[0] as [string, string];
        expect(bcrypt.getRounds(dummy)).toBe(5);
      } finally {
        compare.mockRestore();
      }
    });
  });
});
