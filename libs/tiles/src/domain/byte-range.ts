/**
 * What a `Range` header asks of a representation of `size` bytes (RFC 9110
 * §14.1-14.2). Byte offsets are inclusive, as on the wire.
 *
 * - `whole`: no Range, or one the server ignores (RFC 9110 §14.2 lets a server
 *   ignore Range): another unit, a malformed set, or several ranges. Several
 *   ranges would need a multipart/byteranges answer that PMTiles and MapLibre
 *   never ask for, and multi-range requests are a known amplification vector,
 *   so they get the whole archive, 200.
 * - `partial`: one satisfiable range, clamped to the representation: 206.
 * - `unsatisfiable`: one range that starts at or beyond the end (or `-0`): 416.
 */
export type ByteRange = { kind: 'whole' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const WHOLE: ByteRange = { kind: 'whole' };
const UNIT = /^bytes=/i;
const FROM = /^(\d+)-(\d*)$/;
const SUFFIX = /^-(\d+)$/;

export function resolveByteRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined || !UNIT.test(header)) return WHOLE;
  // The list rule (RFC 9110 §5.6.1) allows optional whitespace and empty elements.
  const specs = header
    .slice('bytes='.length)
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec.length > 0);
  if (specs.length !== 1) return WHOLE;
  const [spec] = specs;

  const from = FROM.exec(spec);
  if (from) {
    const first = Number(from[1]);
    const last = from[2] === '' ? undefined : Number(from[2]);
    if (last !== undefined && last < first) return WHOLE;
    if (first >= size) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: first, end: Math.min(last ?? size - 1, size - 1) };
  }
  const suffix = SUFFIX.exec(spec);
  if (suffix) {
    const length = Number(suffix[1]);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  return WHOLE;
}
