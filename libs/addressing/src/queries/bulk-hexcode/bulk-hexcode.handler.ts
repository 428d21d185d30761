import { Readable } from 'node:stream';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { RefusedError, yieldingEach, type RawJson } from '../../../../platform/src/index.js';
import { CHUNK_ITEMS, type PointNamer } from '../../domain/bulk.js';
import { ReverseNamer } from '../reverse/reverse-namer.js';
import { BulkHexcodePool } from './bulk-hexcode.pool.js';

/**
 * POST /v2/hexcode/bulk: the body as received (unparsed: ADR 0041); items
 * are checked one by one as the answer is made (one bad item does not refuse
 * the batch).
 */
export class BulkHexcodeQuery extends Query<Buffer | Readable> {
  constructor(readonly body: RawJson | undefined) {
    super();
  }
}

/**
 * The whole envelope as bytes. Parsing, validation, coding and serialisation
 * run in a thread (BulkHexcodePool); a refusal comes back as the validation
 * pipe's error. Point items are named here, where the places index is, one
 * chunk (CHUNK_ITEMS) per turn of the event loop, into the gaps the thread
 * left in the answer.
 */
@QueryHandler(BulkHexcodeQuery)
export class BulkHexcodeHandler implements IQueryHandler<BulkHexcodeQuery> {
  constructor(
    private readonly namer: ReverseNamer,
    private readonly pool: BulkHexcodePool,
  ) {}

  async execute(query: BulkHexcodeQuery): Promise<Buffer | Readable> {
    const outcome = await this.pool.run({ body: query.body?.bytes ?? null, surrogateEscape: query.body?.surrogateEscape ?? false, named: this.namer.enabled });
    if (outcome.kind === 'refused') throw new RefusedError(outcome.refusal);
    // A thread's buffer arrives as a plain Uint8Array.
    const bytes = Buffer.from(outcome.bytes.buffer, outcome.bytes.byteOffset, outcome.bytes.byteLength);
    if (outcome.gaps.length === 0) return bytes;
    // Point items are named as GET /v2/reverse names its point (issue 28, item 7).
    const name: PointNamer = (lat, lng) => this.namer.name(lat, lng);
    return Readable.from(yieldingEach(filledGaps(bytes, outcome.gaps, outcome.points, name)), { objectMode: false });
  }
}

/** The answer with each gap filled with its point's name, CHUNK_ITEMS gaps per chunk. */
function* filledGaps(bytes: Buffer, gaps: Int32Array, points: Float64Array, name: PointNamer): Generator<Buffer> {
  let from = 0;
  for (let start = 0; start < gaps.length; start += CHUNK_ITEMS) {
    const parts: Buffer[] = [];
    for (let gap = start; gap < Math.min(gaps.length, start + CHUNK_ITEMS); gap++) {
      parts.push(bytes.subarray(from, gaps[gap]), Buffer.from(JSON.stringify(name(points[2 * gap], points[2 * gap + 1]))));
      from = gaps[gap];
    }
    yield Buffer.concat(parts);
  }
  yield bytes.subarray(from);
}
