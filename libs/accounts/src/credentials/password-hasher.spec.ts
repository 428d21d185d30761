import { describe, expect, it, jest } from '@jest/globals';
import bcrypt from 'bcryptjs';
import { bcryptInput, DEFAULT_BCRYPT_COST, MAX_CONCURRENT_HASHES, PasswordHasher, scryptParamsFor } from './password-hasher.js';

// Cost 4 (scrypt N = 128) keeps the suite fast; the production parameters are asserted separately.
const hasher = new PasswordHasher({ cost: 4 });
const SCRYPT = /^\$scrypt\$ln=7,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

describe('PasswordHasher', () => {
  it('hashes with scrypt at the configured cost and a fresh salt each time', async () => {
    const first = await hasher.hash('correct horse battery staple');
    const second = await hasher.hash('correct horse battery staple');
    expect(first).toMatch(SCRYPT);
    expect(second).not.toBe(first);
  });

  it('uses cost 12 unless told otherwise: scrypt N = 2^15, r = 8, p = 3 (OWASP)', () => {
    expect(DEFAULT_BCRYPT_COST).toBe(12);
    expect(new PasswordHasher().params).toEqual({ ln: 15, r: 8, p: 3 });
    expect(scryptParamsFor(4)).toEqual({ ln: 7, r: 8, p: 3 });
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

  it('verifies a hash made at another cost (the parameters are read from the hash)', async () => {
    const hash = await new PasswordHasher({ cost: 5 }).hash('Tr0ub4dor&3');
    expect(hash).toMatch(/^\$scrypt\$ln=8,/);
    await expect(hasher.verify('Tr0ub4dor&3', hash)).resolves.toBe(true);
  });

  it('verifies the bcrypt hashes stored before scrypt, long passphrases pre-hashed as they were', async () => {
    await expect(hasher.verify('Tr0ub4dor&3', await bcrypt.hash('Tr0ub4dor&3', 4))).resolves.toBe(true);
    await expect(hasher.verify('Tr0ub4dor&4', await bcrypt.hash('Tr0ub4dor&3', 4))).resolves.toBe(false);
    const long = 'the quick brown fox jumps over the lazy dog and keeps on running far away A'; // past bcrypt's 72 bytes
    await expect(hasher.verify(long, await bcrypt.hash(bcryptInput(long), 4))).resolves.toBe(true);
    await expect(hasher.verify(`${long.slice(0, -1)}B`, await bcrypt.hash(bcryptInput(long), 4))).resolves.toBe(false);
  });

  it.each([
    [''],
    ['not a hash'],
    ['$2b$04$short'],
    ['$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA'],
    // Parameters no hash of ours has: refused rather than computed (N = 2^30 would ask for gigabytes).
    [`$scrypt$ln=30,r=8,p=3$${'A'.repeat(22)}$${'A'.repeat(43)}`],
  ])('answers false, not an error, for the stored hash %j', async (stored) => {
    await expect(hasher.verify('Tr0ub4dor&3', stored)).resolves.toBe(false);
  });

  it('lets every character of a long passphrase count', async () => {
    const head = 'the quick brown fox jumps over the lazy dog and keeps on running far away'; // 73 bytes
    expect(Buffer.byteLength(head)).toBeGreaterThan(72);
    const hash = await hasher.hash(`${head} A`);
    await expect(hasher.verify(`${head} A`, hash)).resolves.toBe(true);
    await expect(hasher.verify(`${head} B`, hash)).resolves.toBe(false);
  });

  it('counts multi-byte characters in bytes when deciding to pre-hash a bcrypt input', () => {
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
      expect(hasher.needsRehash(await new PasswordHasher({ cost: 5 }).hash('x'))).toBe(true);
      expect(new PasswordHasher({ cost: 5 }).needsRehash(await hasher.hash('x'))).toBe(true);
    });

    it('is true for every bcrypt hash, whatever its cost, and for anything that is not a hash', async () => {
      expect(hasher.needsRehash(await bcrypt.hash('x', 4))).toBe(true);
      expect(hasher.needsRehash('plain text')).toBe(true);
    });
  });

  describe('verifyAgainstDummy', () => {
    it('always answers false', async () => {
      await expect(hasher.verifyAgainstDummy('Tr0ub4dor&3')).resolves.toBe(false);
      await expect(hasher.verifyAgainstDummy('')).resolves.toBe(false);
    });

    it('runs a real scrypt at the configured parameters', async () => {
      const costly = new PasswordHasher({ cost: 5 });
      const verify = jest.spyOn(costly, 'verify');
      await costly.verifyAgainstDummy('Tr0ub4dor&3');
      expect(verify).toHaveBeenCalledWith('Tr0ub4dor&3', expect.stringMatching(/^\$scrypt\$ln=8,r=8,p=3\$/));
    });
  });

  it(`computes at most ${MAX_CONCURRENT_HASHES} hashes at once, leaving the rest of the thread pool to file and DNS work`, async () => {
    const gated = new PasswordHasher({ cost: 4 });
    await gated.verifyAgainstDummy('warm up');
    let running = 0;
    let most = 0;
    const compare = jest.spyOn(bcrypt, 'compare').mockImplementation(async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return false;
    });
    try {
      const legacy = await bcrypt.hash('x', 4);
      const answers = await Promise.all(Array.from({ length: 6 }, () => gated.verify('y', legacy)));
      expect(answers).toEqual(Array(6).fill(false));
      expect(most).toBe(MAX_CONCURRENT_HASHES);
    } finally {
      compare.mockRestore();
    }
  });
});
