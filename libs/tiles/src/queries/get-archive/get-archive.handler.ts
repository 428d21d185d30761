import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CONFIG, type Config, type DomainError } from '../../../../platform/src/index.js';
import { TileArchives, type OpenArchive } from '../../archives.js';
import { ArchiveName } from '../../domain/archive-name.js';
import { resolveByteRange, type ByteRange } from '../../domain/byte-range.js';
import { PreconditionFailedError, RangeNotSatisfiableError } from '../../domain/errors.js';
import { evaluatePreconditions, type ConditionalHeaders } from '../../domain/preconditions.js';

export const PMTILES_CONTENT_TYPE = 'application/vnd.pmtiles';

/**
 * What to answer for one archive request, in the order the headers go out.
 * The archive is open: whoever sends the answer closes `archive.handle` (or
 * hands it to the body stream). `refusal` is answered in the envelope with
 * the headers already set (412, 416 with its Content-Range).
 */
export interface ArchiveAnswer {
  archive: OpenArchive;
  headers: Array<[name: string, value: string]>;
  status: 200 | 206 | 304;
  refusal: DomainError | null;
  /** The bytes to stream, inclusive; null for no body (HEAD, 304, an empty archive, a refusal). */
  body: { start: number; end: number } | null;
}

/** GET or HEAD /v2/tiles/{name} with the request's conditional and Range headers (RFC 9110 §13, §14). */
export class GetArchiveQuery extends Query<ArchiveAnswer> {
  constructor(
    readonly name: string,
    readonly conditions: ConditionalHeaders,
    readonly range: string | undefined,
    readonly withBody: boolean,
  ) {
    super();
  }
}

/** Opens the archive and decides the answer from its validators; the handle it opened stays open for the body. */
@QueryHandler(GetArchiveQuery)
export class GetArchiveHandler implements IQueryHandler<GetArchiveQuery> {
  constructor(
    private readonly archives: TileArchives,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async execute(query: GetArchiveQuery): Promise<ArchiveAnswer> {
    const archive = await this.archives.open(ArchiveName.parse(query.name));
    try {
      return this.answer(archive, query);
    } catch (error) {
      await archive.handle.close();
      throw error;
    }
  }

  private answer(archive: OpenArchive, query: GetArchiveQuery): ArchiveAnswer {
    const headers: ArchiveAnswer['headers'] = [
      ['accept-ranges', 'bytes'],
      ['etag', archive.etag],
      ['last-modified', new Date(archive.lastModifiedMs).toUTCString()],
      ['cache-control', `public, max-age=${this.config.tilesMaxAgeS}`],
      // Shared caches must not hand a keyed answer to a request without that key.
      ['vary', 'X-API-Key'],
    ];
    const precondition = evaluatePreconditions(query.conditions, archive);
    if (precondition.outcome === 'precondition-failed') {
      return { archive, headers, status: 200, refusal: new PreconditionFailedError('the archive does not match If-Match / If-Unmodified-Since'), body: null };
    }
    if (precondition.outcome === 'not-modified') return { archive, headers, status: 304, refusal: null, body: null };
    // RFC 9110 §14.2: GET is the only method with range handling.
    const range: ByteRange = query.withBody && precondition.honourRange ? resolveByteRange(query.range, archive.size) : { kind: 'whole' };
    if (range.kind === 'unsatisfiable') {
      headers.push(['content-range', `bytes */${archive.size}`]);
      return { archive, headers, status: 200, refusal: new RangeNotSatisfiableError(archive.size), body: null };
    }
    const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, archive.size - 1];
    headers.push(['content-type', PMTILES_CONTENT_TYPE], ['content-length', String(end - start + 1)]);
    if (range.kind === 'partial') headers.push(['content-range', `bytes ${start}-${end}/${archive.size}`]);
    const body = !query.withBody || archive.size === 0 ? null : { start, end };
    return { archive, headers, status: range.kind === 'partial' ? 206 : 200, refusal: null, body };
  }
}
