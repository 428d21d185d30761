import { Readable } from 'node:stream';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { RefusedError, yieldingBytes, yieldingEach, type RawJson } from '../../../../platform/src/index.js';
import type { PointNamer } from '../../domain/bulk.js';
import { ReverseNamer } from '../../naming/reverse-namer.js';
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
 * pipe's error. Point items are named here, where the places index is, a
 * chunk at a time (yieldingEach's shared budget per turn of the event loop),
 * into the gaps the thread left in the answer.
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
    // Nothing to name (codes decoded): the thread's bytes, a chunk per turn of the loop (docs/adr/0044).
    if (outcome.gaps.length === 0) return yieldingBytes(bytes);
    // Point items are named as GET /v2/reverse names its point (issue 28, item 7).
    const name: PointNamer = (lat, lng) => this.namer.name(lat, lng);
    return Readable.from(yieldingEach(filledGaps(bytes, outcome.gaps, outcome.points, name)), { objectMode: false });
  }
}

/** Points named per chunk: ~40 µs each with the Ghana places loaded, so a chunk is a few ms of the loop. */
const NAMING_CHUNK = 64;

/**
 * The answer with each gap filled with its point's name, NAMING_CHUNK gaps per
 * chunk. Each chunk is one buffer, written in place: the event loop makes one
 * object per chunk rather than two per point (GC was a third of this loop's
 * work in the fairness measurements, ADR 0041). A name that is the same
 * object as the point before's (the namer's one UNNAMED answer where nothing
 * loaded names a point) is serialised once: with no places loaded, turning
 * 10,000 null addresses into text was most of this loop's work per bulk.
 */
export function* filledGaps(bytes: Buffer, gaps: Int32Array, points: Float64Array, name: PointNamer): Generator<Buffer> {
  let from = 0;
  const names: string[] = [];
  let last: { address: ReturnType<PointNamer>; text: string; bytes: number } | undefined;
  for (let start = 0; start < gaps.length; start += NAMING_CHUNK) {
    const end = Math.min(gaps.length, start + NAMING_CHUNK);
    let length = gaps[end - 1] - from;
    names.length = 0;
    for (let gap = start; gap < end; gap++) {
      const address = name(points[2 * gap], points[2 * gap + 1]);
      if (last === undefined || last.address !== address) {
        const text = JSON.stringify(address);
        last = { address, text, bytes: Buffer.byteLength(text) };
      }
      names.push(last.text);
      length += last.bytes;
    }
    const chunk = Buffer.allocUnsafe(length);
    let offset = 0;
    for (let gap = start; gap < end; gap++) {
      offset += bytes.copy(chunk, offset, from, gaps[gap]);
      offset += chunk.write(names[gap - start], offset);
      from = gaps[gap];
    }
    yield chunk;
  }
  yield bytes.subarray(from);
}
