import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { ApiAnswer, InvalidParamError, type AnswerOf } from '../../../../../platform/src/index.js';
import { isCoordinate } from '../../../../../platform/src/geo/geodesy.js';
import type { Rectangle } from '../../domain/landmark-index.js';
import { MAX_BBOX_DEGREES } from '../../public/landmarks.js';
import { listOptions } from '../landmark-list.js';
import { GeocodeLandmarksAnswerSchema } from './geocode-landmarks.answer.js';
import { GeocodeLandmarksQuery } from './geocode-landmarks.handler.js';
import { DEFAULT_GEOCODE_RADIUS_M, GeocodeLandmarksRequest } from './geocode-landmarks.request.js';

/**
 * interface.md, "Addresses, hex codes and search": GET /v2/landmarks/geocode,
 * `bbox=north,south,east,west` (landmarks whose centroid is inside the
 * rectangle) or `near` plus `has_photo`; landmarks with provenance, phone,
 * website, opening_hours, photo_url ("Provenance object": every
 * coordinate-returning response).
 */
@ApiTags('landmarks')
@ApiSecurity('api_key')
@Controller('v2/landmarks/geocode')
export class GeocodeLandmarksController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: 'Landmarks inside a rectangle or near a point, with provenance',
    description:
      'Give `bbox=north,south,east,west` for the landmarks whose point (an OSM way’s is the mean of its nodes) lies inside the rectangle, nearest its centre first; ' +
      'or `near=lat,lng` (optionally `radius_m`) for the nearest. `has_photo=true` keeps only landmarks with a photo. ' +
      'Each landmark carries the provenance of its point: `third_party_match` (it comes from OpenStreetMap or GeoNames and nobody here verified it on the ground), with a nominal accuracy for its source; `verified_at` is when that dataset was imported.',
  })
  @ApiAnswer(GeocodeLandmarksAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (`bbox`, `near`, `radius_m`, `limit`, `has_photo`, `cursor`)' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: no place dataset has been imported yet' })
  geocode(@Query() request: GeocodeLandmarksRequest): Promise<AnswerOf<typeof GeocodeLandmarksAnswerSchema>> {
    const options = listOptions(request);
    if (request.bbox !== undefined) {
      if (request.near !== undefined) throw new InvalidParamError('give either bbox or near, not both', 'bbox');
      if (request.radius_m !== undefined) throw new InvalidParamError('radius_m goes with near, not with bbox', 'radius_m');
      return this.queries.execute(new GeocodeLandmarksQuery({ bbox: parseBbox(request.bbox) }, options));
    }
    if (request.near === undefined) throw new InvalidParamError('give bbox=north,south,east,west or near=lat,lng', 'bbox');
    const [lat, lng] = request.near.split(',').map(Number);
    if (!isCoordinate(lat, lng)) throw new InvalidParamError('near must be "lat,lng" with lat in [-90, 90] and lng in [-180, 180]', 'near');
    return this.queries.execute(new GeocodeLandmarksQuery({ near: { lat, lng }, radius_m: request.radius_m ?? DEFAULT_GEOCODE_RADIUS_M }, options));
  }
}

/** `north,south,east,west` (interface.md's order). A box across the antimeridian (east < west) is not accepted: ask for its two halves. */
export function parseBbox(text: string): Rectangle {
  const [north, south, east, west] = text.split(',').map(Number);
  if (!(north >= -90 && north <= 90 && south >= -90 && south <= 90)) throw new InvalidParamError('bbox north and south must be latitudes in [-90, 90]', 'bbox');
  if (!(east >= -180 && east <= 180 && west >= -180 && west <= 180)) throw new InvalidParamError('bbox east and west must be longitudes in [-180, 180]', 'bbox');
  if (!(north > south)) throw new InvalidParamError('bbox is north,south,east,west: north must be greater than south', 'bbox');
  if (!(east > west)) throw new InvalidParamError('bbox is north,south,east,west: east must be greater than west (a box across the antimeridian is asked as two)', 'bbox');
  if (north - south > MAX_BBOX_DEGREES || east - west > MAX_BBOX_DEGREES) throw new InvalidParamError(`bbox may span at most ${MAX_BBOX_DEGREES}° each way`, 'bbox');
  return { north, south, east, west };
}
