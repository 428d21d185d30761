import { boundedEditDistance, typoBudget } from './edit-distance.js';

describe('boundedEditDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps as one slip each', () => {
    expect(boundedEditDistance('acra', 'accra', 2)).toBe(1);
    expect(boundedEditDistance('kumasy', 'kumasi', 2)).toBe(1);
    expect(boundedEditDistance('tmea', 'tema', 2)).toBe(1);
    expect(boundedEditDistance('tamle', 'tamale', 2)).toBe(1);
    expect(boundedEditDistance('kumasi', 'kumasi', 2)).toBe(0);
    expect(boundedEditDistance('madina', 'medina', 2)).toBe(1);
    expect(boundedEditDistance('takoradi', 'takradii', 2)).toBe(2);
  });

  it('answers max + 1 for anything further apart', () => {
    expect(boundedEditDistance('accra', 'kumasi', 2)).toBe(3);
    expect(boundedEditDistance('ab', 'abcdef', 2)).toBe(3);
    expect(boundedEditDistance('coomassie', 'kumasi', 1)).toBe(2);
  });

  it('agrees with the unbounded distance when within the bound', () => {
    const words = ['accra', 'acra', 'akra', 'kumasi', 'kumase', 'tema', 'tamale', 'madina', 'medina', 'a', ''];
    for (const a of words) for (const b of words) expect(boundedEditDistance(a, b, 10)).toBe(reference(a, b));
  });

  it('allows no slip below four letters, one up to seven, two from eight', () => {
    expect([3, 4, 7, 8].map(typoBudget)).toEqual([0, 1, 1, 2]);
  });
});

/** Plain optimal-string-alignment distance, for comparison. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
