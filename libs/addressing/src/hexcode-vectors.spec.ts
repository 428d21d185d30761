import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cellFromHexCode, formatHexCode, hexCodeForPoint, hexCodeFromCell, InvalidCodeError } from './domain/hexcode.js';

/**
 * "A hex code for a coordinate never changes" (interface.md): the codes in
 * __fixtures__/hexcode-vectors.json were written once by
 * __fixtures__/generate-hexcode-vectors.ts and are compared, never regenerated.
 */
function reasonOf(input: string): string {
  try {
    cellFromHexCode(input);
  } catch (error) {
    if (error instanceof InvalidCodeError) return error.reason;
    throw error;
  }
  return 'accepted';
}

describe('frozen test vectors (__fixtures__/hexcode-vectors.json)', () => {
  const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '__fixtures__/hexcode-vectors.json'), 'utf8')) as {
    vectors: Array<{ lat?: number; lng?: number; resolution: number; cell: string; code: string; display: string }>;
    rejected: Array<{ input: string; reason: string }>;
  };

  it('still gives every committed coordinate and cell the same code', () => {
    expect(fixture.vectors.length).toBeGreaterThan(1000);
    const resolutions = new Set<number>();
    for (const vector of fixture.vectors) {
      resolutions.add(vector.resolution);
      if (vector.lat !== undefined && vector.lng !== undefined) expect(hexCodeForPoint(vector.lat, vector.lng, vector.resolution)).toBe(vector.code);
      expect(hexCodeFromCell(vector.cell)).toBe(vector.code);
      expect(cellFromHexCode(vector.code)).toBe(vector.cell);
      expect(cellFromHexCode(vector.display)).toBe(vector.cell);
      expect(formatHexCode(vector.code)).toBe(vector.display);
    }
    expect(resolutions.size).toBe(16);
  });

  it('still refuses every committed bad input for the same reason', () => {
    for (const { input, reason } of fixture.rejected) expect(reasonOf(input)).toBe(reason);
  });
});
