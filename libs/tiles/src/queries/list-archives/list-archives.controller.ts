import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ListArchivesQuery, type ArchivePage } from './list-archives.handler.js';
import { ListArchivesRequest } from './list-archives.request.js';

/** The archives GET /v2/tiles/{name} serves, with what their PMTiles headers say about them. */
@ApiTags('tiles')
@ApiSecurity('api_key')
@Controller('v2/tiles')
export class ListArchivesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({ summary: 'The basemap archives available, by name' })
  @ApiResponse({
    status: 200,
    description:
      '`items`: `{name, url, size_bytes, etag, last_modified, pmtiles}`, `pmtiles` being `{spec_version, tile_type, tile_compression, min_zoom, max_zoom, bounds: {west, south, east, north}, center: {lat, lng, zoom}, addressed_tiles}` from the archive header, or null for a file that is not a PMTiles v3 archive; `next_cursor`',
  })
  list(@Query() query: ListArchivesRequest): Promise<ArchivePage> {
    return this.queries.execute(new ListArchivesQuery(query.limit, query.cursor));
  }
}
