import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { InvalidParamError } from '../../../../platform/src/index.js';
import { isCoordinate } from '../../domain/geo.js';
import { ATTRIBUTION } from '../../domain/place.js';
import { MAX_QUERY_WORDS, MAX_RESULTS, SearchIndex, type SearchHit } from '../../domain/search-index.js';
import { Gazetteer } from '../../gazetteer.js';
import { SearchPlacesRequest } from './search-places.request.js';

const DEFAULT_LIMIT = 10;

/** interface.md, "Addresses, hex codes and search": results plus did_you_mean when the query nearly matches a known place. */
@ApiTags('places')
@ApiSecurity('api_key')
@Controller('v2/search')
export class SearchPlacesController {
  constructor(private readonly gazetteer: Gazetteer) {}

  @Get()
  @ApiOperation({
    summary: 'Search places by name',
    description:
      'Ranks places (GeoNames and OpenStreetMap imports) by how well the query matches a name or alternate name, ' +
      'the place’s importance (population, class, admin level) and, with `near`, its distance. The last word matches as a prefix (type-ahead); ' +
      'words may also match the region or district ("madina accra"). `did_you_mean` suggests a spelling when the query nearly matches a better-known place; ' +
      'the places it finds follow the query’s own, marked `match: "fuzzy"`. Results carry the attribution their sources require.',
  })
  @ApiResponse({
    status: 200,
    description:
      '`{query, items: [{id, name, kind, feature, lat, lng, region, district, population, score, match, matched_name, distance_m, phone, website, opening_hours, source}], next_cursor, did_you_mean, attribution, datasets}`',
  })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (`q`, `near`, `lat`, `lng`, `limit`, `cursor`)' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: no place dataset has been imported yet' })
  search(@Query() request: SearchPlacesRequest) {
    const words = SearchIndex.words(request.q);
    if (words.length === 0) throw new InvalidParamError('q must contain a letter or a digit', 'q');
    if (words.length > MAX_QUERY_WORDS) throw new InvalidParamError(`q may have at most ${MAX_QUERY_WORDS} words`, 'q');
    const near = nearPoint(request);
    const limit = request.limit ?? DEFAULT_LIMIT;
    const offset = request.cursor === undefined ? 0 : decodeCursor(request.cursor);
    const result = this.gazetteer.search({ text: request.q, near, limit, offset });
    const items = result.hits.map(view);
    return {
      query: request.q,
      items,
      next_cursor: result.more ? encodeCursor(offset + items.length) : null,
      did_you_mean: result.did_you_mean,
      attribution: [...new Set(result.hits.map((hit) => ATTRIBUTION[hit.place.source]))].sort(),
      datasets: this.gazetteer.datasets.map(({ dataset, version, imported_at }) => ({ dataset, version, imported_at })),
    };
  }
}

function view(hit: SearchHit) {
  const { place } = hit;
  return {
    id: place.id,
    name: place.name,
    kind: place.kind,
    feature: place.feature,
    lat: place.lat,
    lng: place.lng,
    region: place.region,
    district: place.district,
    population: place.population,
    score: hit.score,
    match: hit.match,
    matched_name: hit.matched_name,
    distance_m: hit.distance_m,
    phone: place.phone,
    website: place.website,
    opening_hours: place.opening_hours,
    source: place.source,
  };
}

function nearPoint(request: SearchPlacesRequest): { lat: number; lng: number } | undefined {
  const separate = request.lat !== undefined || request.lng !== undefined;
  if (request.near !== undefined && separate) throw new InvalidParamError('give either near or lat and lng, not both', 'near');
  if (separate) {
    if (request.lat === undefined) throw new InvalidParamError('lng needs lat', 'lat');
    if (request.lng === undefined) throw new InvalidParamError('lat needs lng', 'lng');
    return { lat: request.lat, lng: request.lng };
  }
  if (request.near === undefined) return undefined;
  const [lat, lng] = request.near.split(',').map(Number);
  if (!isCoordinate(lat, lng)) throw new InvalidParamError('near must be "lat,lng" with lat in [-90, 90] and lng in [-180, 180]', 'near');
  return { lat, lng };
}

/** An opaque page token: the offset of the next result (a deeper page than MAX_RESULTS is never offered). */
function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^o:(\d{1,4})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const offset = match ? Number(match[1]) : NaN;
  if (!(offset > 0 && offset < MAX_RESULTS)) throw new InvalidParamError('cursor is not a next_cursor of this endpoint', 'cursor');
  return offset;
}
