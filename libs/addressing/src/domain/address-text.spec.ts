import { findAddressCodes, MIN_EMBEDDED_CODE_LENGTH } from './address-text.js';
import { hexCodeForPoint, HEX_CODE_ALPHABET } from './hexcode.js';

const code = hexCodeForPoint(5.6037, -0.187); // 6Q3HQKQ4ZA
const display = '6Q3-HQK-Q4ZA';

describe('findAddressCodes', () => {
  it.each([
    [code, 'compact', 'upper', false],
    [display, 'hyphenated', 'upper', false],
    [display.toLowerCase(), 'hyphenated', 'lower', false],
    ['6Q3 HQK Q4ZA', 'spaced', 'upper', false],
    ['6Q3-HQK Q4ZA', 'mixed', 'upper', false],
    [`Code: ${display}. Gate is blue`, 'hyphenated', 'upper', true],
    [`${code.toLowerCase()} (behind the church)`, 'compact', 'lower', true],
    [`at 6q3 HQK q4za thanks`, 'spaced', 'mixed', true],
  ])('finds the code in %j', (text, shape, letterCase, embedded) => {
    const { match } = findAddressCodes(text);
    expect(match).toMatchObject({ kind: 'hex_code', code, display, resolution: 13, convertible: true });
    expect(match?.recognised).toMatchObject({ shape, letter_case: letterCase, embedded });
    expect(text.slice(match!.recognised.start, match!.recognised.end).replace(/[- ]/g, '').toUpperCase()).toBe(code);
  });

  it('reads the look-alike O as 0, and says so', () => {
    const withZero = [...Array(16).keys()].map((res) => hexCodeForPoint(9.4, -0.84, res)).find((c) => c.length >= 8 && c.includes('0') && /[2-9]/.test(c))!;
    const { match } = findAddressCodes(`send to ${withZero.replace(/0/g, 'O')}`);
    expect(match?.code).toBe(withZero);
    expect(match?.recognised.look_alikes).toBe(true);
  });

  it('recognises GhanaPostGPS digital addresses in their shapes, as not convertible', () => {
    for (const text of ['GA-123-4567', 'ga1234567', 'Our office: AK-0395-0283, Kumasi', 'GA 123 4567']) {
      const { match } = findAddressCodes(text);
      expect(match).toMatchObject({ kind: 'ghanapost_gps', convertible: false, cell: null });
      expect(match?.code).toMatch(/^[A-Z]{2}-\d{3,4}-\d{4}$/);
    }
  });

  it('reports every code, the first one as the match', () => {
    const other = hexCodeForPoint(6.6978, -1.6232);
    const result = findAddressCodes(`from GA-123-4567 to ${display}, then ${other}`);
    expect(result.match?.kind).toBe('ghanapost_gps');
    expect(result.others.map((o) => o.code)).toEqual([code, other]);
  });

  it('takes a hyphenated run whole: a mistyped code is not mined for a shorter one', () => {
    const result = findAddressCodes('at 6Q3-HQK-Q4ZB');
    expect(result.match).toBeNull();
    expect(result.suggested_for).toBe('6Q3-HQK-Q4ZB');
    expect(result.suggestions).toContain(code);
  });

  it('does not take ordinary words for codes', () => {
    const prose =
      'Turn left after the market, pass the yellow church and the Methodist school, then stop at the third gate with the mango tree; ' +
      'ask for Ama at the provisions shop next to the taxi rank, she knows everybody on this street';
    expect(findAddressCodes(prose).match).toBeNull();
    // Every 3-letter word of the alphabet that passes the check is a code on its own, but never inside text.
    let standalone = 0;
    for (const a of 'ABCDEFGH') for (const b of HEX_CODE_ALPHABET) for (const c of 'ABCDEFGHJK') {
      const word = `${a}${b}${c}`;
      if (findAddressCodes(word).match) standalone++;
      expect(findAddressCodes(`the ${word} house`).match).toBeNull();
    }
    expect(standalone).toBeGreaterThan(0);
    expect(MIN_EMBEDDED_CODE_LENGTH).toBeGreaterThan(3);
  });

  it('finds nothing in empty text', () => {
    expect(findAddressCodes('   ')).toEqual({ match: null, others: [], suggestions: [], suggested_for: null });
  });
});
