import { Readable } from 'node:stream';

/**
 * JSON.stringify's text of a large answer, made in bounded steps (issue 31,
 * item 2; docs/adr/0042): one `JSON.stringify` of a 2.7 MB answer holds the
 * event loop for tens of ms, with every other request waiting behind it.
 *
 * The text is exactly `JSON.stringify(value)` (`json-chunks.spec.ts` checks
 * it): arrays and plain objects that hold more than a few values are walked,
 * and their small members (a loan's row, a hex code) are stringified as they
 * are, `SLICE` at a time, or fewer once their text reaches `PIECE_CHARS`. So
 * each piece handed out costs at most `SLICE` small members' work, whatever
 * the size of the whole.
 */
const SLICE = 256;
/** Or fewer, once their text is this long: 256 of a portfolio's loans made a piece of ~70 kB (docs/adr/0051). */
const PIECE_CHARS = 8 * 1024;
/** Arrays up to this length are stringified whole (unless they hold a large one). */
const SMALL = 64;

export function* jsonPieces(value: unknown): Generator<string> {
  if (Array.isArray(value)) {
    yield '[';
    let batch: string[] = [];
    let chars = 0;
    for (let i = 0; i < value.length; i++) {
      const element = value[i] as unknown;
      const prefix = i === 0 ? '' : ',';
      if (isLarge(element)) {
        if (batch.length > 0) yield batch.join('');
        batch = [];
        chars = 0;
        yield prefix;
        yield* jsonPieces(element);
        continue;
      }
      // JSON.stringify writes null for an array element it cannot represent (undefined, a function, a symbol).
      const text = prefix + (JSON.stringify(element) ?? 'null');
      batch.push(text);
      chars += text.length;
      if (batch.length === SLICE || chars >= PIECE_CHARS) {
        yield batch.join('');
        batch = [];
        chars = 0;
      }
    }
    if (batch.length > 0) yield batch.join('');
    yield ']';
    return;
  }
  if (isPlainObject(value)) {
    yield '{';
    let first = true;
    let batch: string[] = [];
    let chars = 0;
    for (const key of Object.keys(value)) {
      const member = value[key];
      // JSON.stringify leaves out a member it cannot represent.
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      const prefix = `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (isLarge(member)) {
        if (batch.length > 0) yield batch.join('');
        batch = [];
        chars = 0;
        yield prefix;
        yield* jsonPieces(member);
        continue;
      }
      const text = prefix + JSON.stringify(member);
      batch.push(text);
      chars += text.length;
      if (batch.length === SLICE || chars >= PIECE_CHARS) {
        yield batch.join('');
        batch = [];
        chars = 0;
      }
    }
    if (batch.length > 0) yield batch.join('');
    yield '}';
    return;
  }
  const text = JSON.stringify(value);
  if (text !== undefined) yield text;
}

/**
 * The pieces as a byte stream, about `bytes` a chunk, yielding to the event
 * loop between chunks (setImmediate), so other requests are served while a
 * large answer is written. 16 KiB of a portfolio's loans is about half a
 * millisecond of stringifying (64 KiB chunks held the loop ~2 ms each: ADR 0043).
 */
export function jsonStream(value: unknown, bytes = 16 * 1024): Readable {
  return Readable.from(chunked(value, bytes), { objectMode: false });
}

async function* chunked(value: unknown, bytes: number): AsyncGenerator<Buffer> {
  let parts: string[] = [];
  let length = 0;
  for (const piece of jsonPieces(value)) {
    parts.push(piece);
    length += piece.length;
    if (length >= bytes) {
      yield Buffer.from(parts.join(''), 'utf8');
      parts = [];
      length = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  if (parts.length > 0) yield Buffer.from(parts.join(''), 'utf8');
}

/**
 * Walked rather than stringified whole: an array longer than SMALL, or an
 * array or plain object holding one, looked for DEPTH levels down. Only the
 * size of the steps depends on it, never the text; it runs for every member,
 * so primitives are passed over on their `typeof`.
 */
const DEPTH = 3;
function isLarge(value: unknown, depth = DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    if (value.length > SMALL) return true;
    if (depth === 0) return false;
    for (const element of value as unknown[]) if (typeof element === 'object' && element !== null && isLarge(element, depth - 1)) return true;
    return false;
  }
  if (depth === 0 || !isPlainObject(value)) return false;
  for (const key in value) {
    const member = value[key];
    if (typeof member === 'object' && member !== null && isLarge(member, depth - 1)) return true;
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
