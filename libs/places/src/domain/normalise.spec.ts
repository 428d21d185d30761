import { normalise, tokens } from './normalise.js';

describe('normalise', () => {
  it('ignores case, accents and punctuation, and joins apostrophes', () => {
    expect(normalise('  Asamankésé ')).toBe('asamankese');
    expect(normalise('Sekondi-Takoradi')).toBe('sekondi takoradi');
    expect(normalise("St. Mary's  R/C (JHS)")).toBe('st marys r c jhs');
    expect(normalise('KORLE–BU')).toBe('korle bu');
  });

  it('keeps letters of other scripts and digits', () => {
    expect(normalise('Кумаси 2')).toBe('кумаси 2');
    expect(normalise('库马西')).toBe('库马西');
    expect(tokens('Ɛkumfi Nárkwa')).toEqual(['ɛkumfi', 'narkwa']);
  });

  it('gives no tokens for text without letters or digits', () => {
    expect(tokens(' -- !! ')).toEqual([]);
  });
});
