import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { InvalidParamError, type AnswerOf } from '../../../../platform/src/index.js';
import { isCoordinate } from '../../../../platform/src/geo/geodesy.js';
import { ATTRIBUTION } from '../../domain/place.js';
import { MAX_QUERY_WORDS, MAX_RESULTS, SearchIndex, type SearchHit } from '../../domain/search-index.js';
import { Gazetteer } from '../../public/gazetteer.js';
import { COVERED_COUNTRIES, outsideCoverage } from '../../domain/coverage.js';
import type { PlaceSearchAnswerSchema } from './search-places.answer.js';

const DEFAULT_LIMIT = 10;

/** GET /v2/search: the request's parameters as given (each checked here, 400 INVALID_PARAM naming the field). */
export interface PlaceSearch {
  q: string;
  near?: string;
  lat?: number;
  lng?: number;
  limit?: number;
  cursor?: string;
}

export type PlaceSearchAnswer = AnswerOf<typeof PlaceSearchAnswerSchema>;

export class SearchPlacesQuery extends Query<PlaceSearchAnswer> {
  constructor(readonly search: PlaceSearch) {
    super();
  }
}

/** Places ranked by name match, importance and distance; did_you_mean when the query nearly matches a better-known place. */
@QueryHandler(SearchPlacesQuery)
export class SearchPlacesHandler implements IQueryHandler<SearchPlacesQuery> {
  constructor(private readonly gazetteer: Gazetteer) {}

  async execute({ search: request }: SearchPlacesQuery): Promise<PlaceSearchAnswer> {
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
      coverage: { countries: COVERED_COUNTRIES },
      outside_coverage: outsideCoverage(request.q),
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

function nearPoint(request: PlaceSearch): { lat: number; lng: number } | undefined {
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
