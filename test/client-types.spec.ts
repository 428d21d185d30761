import { describe, expect, it } from '@jest/globals';
import type { ReverseAnswer, ReverseControllerReverseResponse } from '../packages/client/src/types.gen.js';

/**
 * Issue 28, item 4: the generated client types its answers from the documented
 * schemas, so code that reads a field the answer does not have fails to
 * compile (imported by path: this worktree's generated sources, not whichever
 * copy the workspace link points at). `npm run typecheck` (part of `npm test`) is the test: each
 * `@ts-expect-error` below must meet an error, and the lines without one
 * must compile, which they would not if the answer were typed `unknown`.
 */
function readReverse(answer: ReverseControllerReverseResponse): string {
  const data: ReverseAnswer = answer.data;
  const label = `${data.code} ${data.lat},${data.lng} ${data.provenance.source} ${data.address?.formatted ?? ''}`;
  // @ts-expect-error: reverse answers `code`, not `hex_code`.
  void data.hex_code;
  // @ts-expect-error: the provenance has `accuracy_meters`, not `accuracy_m`.
  void data.provenance.accuracy_m;
  // @ts-expect-error: `success` is the literal true in a 2xx answer.
  const refused: ReverseControllerReverseResponse = { success: false, data };
  void refused;
  return label;
}

describe('the typed client (packages/client) types the reverse answer', () => {
  it('reads the documented fields of a reverse answer', () => {
    const data = {
      code: '6Q3-HQK-Q4ZA',
      display: '6Q3-HQK-Q4ZA',
      cell: '8d754e64992d6bf',
      resolution: 13,
      lat: 5.6037,
      lng: -0.187,
      distance_m: 1.2,
      provenance: { source: 'device_gps', provider: 'caller', accuracy_meters: 12, confidence: 1, verified_at: '2026-11-27T00:00:00.000Z' },
      address: { formatted: 'near Makola Market, Accra Central, Accra Metropolis, Greater Accra' },
    } as unknown as ReverseAnswer;
    expect(readReverse({ success: true, data })).toBe('6Q3-HQK-Q4ZA 5.6037,-0.187 device_gps near Makola Market, Accra Central, Accra Metropolis, Greater Accra');
  });
});
