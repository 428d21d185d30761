import { validateRawJson, type Refusal, type WorkAnswer } from '../../../../platform/src/index.js';
import { bulkAnswerPieces } from '../../domain/bulk.js';
import { DEFAULT_ADDRESS_RESOLUTION } from '../../domain/hexcode.js';
import { BulkHexcodeRequest } from './bulk-hexcode.request.js';

/** One POST /v2/hexcode/bulk for a thread (ADR 0041): the body's bytes as received, and whether point items are named. */
export interface BulkHexcodeJob {
  /** null: the request had no body. */
  body: Uint8Array | null;
  /** The parser's scan saw a surrogate escape: the parsed body is checked for lone surrogates. */
  surrogateEscape: boolean;
  /** Point items get an `address` (the places index is loaded): their answers leave a gap for it. */
  named: boolean;
}

export type BulkHexcodeOutcome =
  /** The request as a whole is refused: the error the main thread answers, as its validation pipe would have. */
  | { kind: 'refused'; refusal: Refusal }
  /**
   * The answer's JSON, envelope included, in UTF-8. With naming, `gaps[i]` is
   * the byte offset where the address of the point (`points[2i]`,
   * `points[2i+1]`) goes: the bytes there read `"address":` before it and `}` after.
   */
  | { kind: 'answer'; bytes: Uint8Array; gaps: Int32Array; points: Float64Array };

/**
 * What POST /v2/hexcode/bulk does to a body, run in a worker thread
 * (bulk-hexcode.worker.ts) or, without threads, on the calling one: the JSON
 * parse and the DTO's validation (the same rules and errors as every other
 * route's body), the coding of every item, and the answer's serialisation.
 */
export async function runBulkHexcodeJob(job: BulkHexcodeJob): Promise<WorkAnswer<BulkHexcodeOutcome>> {
  // The DTO checks `items` as an array (its items are checked one by one below): the pipe need not copy them.
  const checked = await validateRawJson(job.body, job.surrogateEscape, BulkHexcodeRequest, ['items']);
  if (!checked.ok) return { output: { kind: 'refused', refusal: checked.refusal } };
  const { items, resolution } = checked.value;
  const texts: string[] = [];
  /** For each gap, the index in `texts` of the text that follows it. */
  const gapBefore: number[] = [];
  const points: number[] = [];
  for (const pieces of bulkAnswerPieces(items, resolution ?? DEFAULT_ADDRESS_RESOLUTION, job.named)) {
    for (const piece of pieces) {
      if (typeof piece === 'string') {
        texts.push(piece);
      } else {
        gapBefore.push(texts.length);
        points.push(piece.lat, piece.lng);
      }
    }
  }
  let length = 0;
  for (const text of texts) length += Buffer.byteLength(text);
  // Not from Node's shared pool: the buffer is transferred to the main thread whole.
  const bytes = Buffer.allocUnsafeSlow(length);
  const gaps = new Int32Array(gapBefore.length);
  let offset = 0;
  let gap = 0;
  for (let index = 0; index < texts.length; index++) {
    while (gap < gapBefore.length && gapBefore[gap] === index) gaps[gap++] = offset;
    offset += bytes.write(texts[index], offset);
  }
  while (gap < gapBefore.length) gaps[gap++] = offset;
  const pointArray = Float64Array.from(points);
  return { output: { kind: 'answer', bytes, gaps, points: pointArray }, transfer: [bytes.buffer as ArrayBuffer, gaps.buffer, pointArray.buffer] };
}
