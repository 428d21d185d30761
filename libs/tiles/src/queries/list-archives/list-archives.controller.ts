import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { TileArchives } from '../../archives.js';
import { ListArchivesRequest } from './list-archives.request.js';

const DEFAULT_LIMIT = 100;

/** The archives GET /v2/tiles/{name} serves, with what their PMTiles headers say about them. */
@ApiTags('tiles')
@ApiSecurity('api_key')
@Controller('v2/tiles')
export class ListArchivesController {
  constructor(private readonly archives: TileArchives) {}

  @Get()
  @ApiOperation({ summary: 'The basemap archives available, by name' })
  @ApiResponse({
    status: 200,
    description:
      '`items`: `{name, url, size_bytes, etag, last_modified, pmtiles}`, `pmtiles` being `{spec_version, tile_type, tile_compression, min_zoom, max_zoom, bounds: {west, south, east, north}, center: {lat, lng, zoom}, addressed_tiles}` from the archive header, or null for a file that is not a PMTiles v3 archive; `next_cursor`',
  })
  async list(@Query() query: ListArchivesRequest) {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const after = query.cursor;
    const all = await this.archives.list();
    const page = all.filter((archive) => after === undefined || archive.name > after).slice(0, limit + 1);
    const items = page.slice(0, limit).map((archive) => ({ name: archive.name, url: `/v2/tiles/${archive.name}`, ...withoutName(archive) }));
    return { items, next_cursor: page.length > limit ? items[items.length - 1].name : null };
  }
}

function withoutName<T extends { name: string }>({ name: _name, ...rest }: T): Omit<T, 'name'> {
  return rest;
}
