import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { InvalidParamError, Public } from '../../../../platform/src/index.js';
import { TrafficView } from '../../traffic-view.js';

export interface Box {
  north: number;
  south: number;
  east: number;
  west: number;
}

/** `north,south,east,west` (interface.md's order), as elsewhere. */
export function parseBox(text: unknown, maxDegrees: number): Box {
  if (typeof text !== 'string') throw new InvalidParamError('bbox must be "north,south,east,west"', 'bbox');
  const parts = text.split(',').map(Number);
  const [north, south, east, west] = parts;
  if (parts.length !== 4 || !(north >= -90 && north <= 90 && south >= -90 && south <= 90 && north > south)) throw new InvalidParamError('bbox is north,south,east,west with north > south, latitudes in [-90, 90]', 'bbox');
  if (!(east >= -180 && east <= 180 && west >= -180 && west <= 180 && east > west)) throw new InvalidParamError('bbox is north,south,east,west with east > west, longitudes in [-180, 180]', 'bbox');
  if (north - south > maxDegrees || east - west > maxDegrees) throw new InvalidParamError(`bbox may span at most ${maxDegrees}° each way`, 'bbox');
  return { north, south, east, west };
}

export function inBox(box: Box, lat: number, lng: number): boolean {
  return lat <= box.north && lat >= box.south && lng <= box.east && lng >= box.west;
}

/** interface.md: GET /v2/route/incidents, Public: the live incidents. */
@ApiTags('routing')
@Controller('v2/route/incidents')
export class ListIncidentsController {
  constructor(private readonly view: TrafficView) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Live road hazards', description: 'Incidents not yet expired, oldest first; `bbox` (north,south,east,west) filters.' })
  @ApiQuery({ name: 'bbox', required: false })
  @ApiResponse({ status: 200, description: '`{incidents: [{id, kind, lat, lng, note, corroborations, blocks_routes, first_reported_at, last_reported_at, expires_at}], count}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`bbox`)' })
  list(@Query('bbox') bbox?: string) {
    const box = bbox === undefined ? null : parseBox(bbox, 5);
    const blocking = new Set(this.view.hazards(new Date()).filter((hazard) => hazard.blocks).map((hazard) => hazard.id));
    const incidents = this.view.board
      .active(new Date())
      .filter((incident) => !box || inBox(box, incident.lat, incident.lng))
      .map((incident) => ({ ...incident, blocks_routes: blocking.has(incident.id) }));
    return { incidents, count: incidents.length };
  }
}
