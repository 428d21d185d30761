import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { InvalidParamError } from '../../../../platform/src/index.js';
import { trafficLevel } from '../../../../routing/src/index.js';
import { bucketOf, priorFactor, PRIOR_WEIGHT, ROAD_CLASSES, type LearnedTraffic } from '../../domain/learned-traffic.js';
import { TrafficView } from '../../traffic-view.js';

/**
 * Congestion per road class at an hour: the documented prior blended with
 * the mean learned factor of that hour, the prior counting as PRIOR_WEIGHT
 * samples (docs/adr/0025).
 */
export function roadTraffic(learned: LearnedTraffic, at: Date) {
  const bucket = bucketOf(at);
  let samples = 0;
  let logSum = 0;
  for (const cell of learned.cells()) {
    if (cell.bucket !== bucket) continue;
    samples += cell.samples;
    logSum += cell.samples * Math.log(cell.factor);
  }
  const learnedMean = samples === 0 ? null : Math.exp(logSum / samples);
  return {
    at: at.toISOString(),
    hour: bucket,
    learned_samples: samples,
    classes: ROAD_CLASSES.map((roadClass) => {
      const prior = priorFactor(roadClass, bucket);
      const multiplier = learnedMean === null ? prior : Math.exp((PRIOR_WEIGHT * Math.log(prior) + samples * Math.log(learnedMean)) / (PRIOR_WEIGHT + samples));
      const level = trafficLevel(Math.max(1, multiplier));
      return { road_class: roadClass, multiplier: Math.round(multiplier * 100) / 100, prior: prior, severity: level.traffic_severity, color: level.traffic_color };
    }),
  };
}

/** interface.md: GET /v2/route/traffic, Key. */
@ApiTags('routing')
@Controller('v2/route/traffic')
export class RoadTrafficController {
  constructor(private readonly view: TrafficView) {}

  @Get()
  @ApiOperation({ summary: 'Congestion per road class', description: 'motorway, primary, secondary, residential: `multiplier` of free-flow time, `severity` (free, moderate, heavy, severe) and `color`, for now or `at` (ISO 8601).' })
  @ApiQuery({ name: 'at', required: false })
  @ApiResponse({ status: 200, description: '`{at, hour, learned_samples, classes: [{road_class, multiplier, prior, severity, color}]}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`at`)' })
  get(@Query('at') at?: string) {
    const when = at === undefined ? new Date() : new Date(at);
    if (Number.isNaN(when.getTime())) throw new InvalidParamError('at must be an ISO 8601 time', 'at');
    return roadTraffic(this.view.learned, when);
  }
}
