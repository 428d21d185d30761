import { randomBytes } from 'node:crypto';
import { InvalidParamError } from '../../../platform/src/errors.js';
import { CROCKFORD_ALPHABET, formatShareCode, normaliseShareCode, SHARE_CODE_BITS } from './share-code.js';

describe('share codes', () => {
  it('carry 60 random bits as three groups of four Crockford characters', () => {
    expect(SHARE_CODE_BITS).toBeGreaterThanOrEqual(60);
    const code = formatShareCode(randomBytes(8));
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  });

  it('spell the low 60 bits of the random bytes, most significant first', () => {
    expect(formatShareCode(Buffer.alloc(8))).toBe('0000-0000-0000');
    expect(formatShareCode(Buffer.from('ffffffffffffffff', 'hex'))).toBe('ZZZZ-ZZZZ-ZZZZ');
    // 0x0000000000000001 and 0x0800000000000000 (bit 59, the top one kept): the last and the first character.
    expect(formatShareCode(Buffer.from('0000000000000001', 'hex'))).toBe('0000-0000-0001');
    expect(formatShareCode(Buffer.from('0800000000000000', 'hex'))).toBe('G000-0000-0000');
  });

  it('use every character of the alphabet about equally (no bias from the byte-to-digit mapping)', () => {
    const counts = new Map<string, number>();
    for (let index = 0; index < 4000; index++) for (const character of formatShareCode(randomBytes(8)).replace(/-/g, '')) counts.set(character, (counts.get(character) ?? 0) + 1);
    expect(counts.size).toBe(CROCKFORD_ALPHABET.length);
    // 48,000 characters over 32 symbols: 1,500 each; a biased mapping would leave some near half or double that.
    for (const count of counts.values()) expect(count).toBeGreaterThan(1200);
  });

  it('read back any case, with hyphens and spaces anywhere, I and L as 1 and O as 0', () => {
    for (let index = 0; index < 50; index++) {
      const code = formatShareCode(randomBytes(8));
      expect(normaliseShareCode(code)).toBe(code.replace(/-/g, ''));
      expect(normaliseShareCode(` ${code.toLowerCase().replace(/-/g, ' ')} `)).toBe(code.replace(/-/g, ''));
    }
    expect(normaliseShareCode('oiL0-1111-abcd')).toBe('01101111ABCD');
  });

  it('refuse what cannot be a code with INVALID_PARAM naming `code`', () => {
    for (const bad of ['', 'ABCD-EFGH-JKM', 'ABCD-EFGH-JKMNP', 'ABCD-EFGH-JKMU', 'ABCD_EFGH_JKMN', 'ÀBCD-EFGH-JKMN', 'A'.repeat(41)]) {
      expect(() => normaliseShareCode(bad)).toThrow(InvalidParamError);
      try {
        normaliseShareCode(bad);
      } catch (error) {
        expect(error).toMatchObject({ code: 'INVALID_PARAM', field: 'code' });
      }
    }
  });
});
