import { Readable } from 'node:stream';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { yieldingEach } from '../../../../platform/src/index.js';
import { bulkAnswerChunks } from '../../domain/bulk.js';
import { DEFAULT_ADDRESS_RESOLUTION } from '../../domain/hexcode.js';
import { ReverseNamer } from '../reverse/reverse-namer.js';

/** POST /v2/hexcode/bulk: items are checked one by one as the answer is made (one bad item does not refuse the batch). */
export class BulkHexcodeQuery extends Query<Readable> {
  constructor(
    readonly items: readonly unknown[],
    readonly resolution?: number,
  ) {
    super();
  }
}

/** The whole envelope as a byte stream, computed chunk by chunk while it is sent (thousands of items per request). */
@QueryHandler(BulkHexcodeQuery)
export class BulkHexcodeHandler implements IQueryHandler<BulkHexcodeQuery> {
  constructor(private readonly namer: ReverseNamer) {}

  async execute(query: BulkHexcodeQuery): Promise<Readable> {
    // Point items are named as GET /v2/reverse names its point (issue 28, item 7).
    const name = this.namer.enabled ? (lat: number, lng: number) => this.namer.name(lat, lng) : undefined;
    // One chunk (CHUNK_ITEMS) per turn of the event loop: other requests are served between them (issue 31).
    return Readable.from(yieldingEach(bulkAnswerChunks(query.items, query.resolution ?? DEFAULT_ADDRESS_RESOLUTION, name)), { objectMode: false });
  }
}
