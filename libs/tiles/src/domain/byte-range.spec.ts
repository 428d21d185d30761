import { resolveByteRange } from './byte-range.js';

describe('resolveByteRange (RFC 9110 §14)', () => {
  const size = 1000;

  it('without a Range header is the whole representation', () => {
    expect(resolveByteRange(undefined, size)).toEqual({ kind: 'whole' });
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=100-100', 100, 100],
    ['bytes=900-', 900, 999],
    ['bytes=990-5000', 990, 999],
    ['bytes=-10', 990, 999],
    ['bytes=-5000', 0, 999],
    ['Bytes=1-2', 1, 2],
    ['bytes= 3-4 ', 3, 4],
    ['bytes=5-6,', 5, 6],
    ['bytes=0-99999999999999999999999', 0, 999],
  ])('%s selects bytes %i-%i', (header, start, end) => {
    expect(resolveByteRange(header, size)).toEqual({ kind: 'partial', start, end });
  });

  it.each(['bytes=1000-', 'bytes=1000-2000', 'bytes=-0', 'bytes=99999999999999999999-'])('%s is unsatisfiable', (header) => {
    expect(resolveByteRange(header, size)).toEqual({ kind: 'unsatisfiable' });
  });

  it('any range of an empty representation is unsatisfiable', () => {
    expect(resolveByteRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(resolveByteRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  // Ignored, as RFC 9110 §14.2 allows: the whole archive is sent.
  it.each(['items=0-1', 'bytes=5-4', 'bytes=abc', 'bytes=', 'bytes=0-1,5-9', 'bytes=0-1, bytes=2-3', 'bytes=--1', 'bytes=1.5-2', 'bytes 0-1', 'bytes=-'])(
    '%s is ignored',
    (header) => {
      expect(resolveByteRange(header, size)).toEqual({ kind: 'whole' });
    },
  );
});
