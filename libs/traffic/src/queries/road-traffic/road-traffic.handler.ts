import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../../../platform/src/index.js';
import { trafficLevel } from '../../../../routing/src/index.js';
import { bucketOf, priorFactor, PRIOR_WEIGHT, ROAD_CLASSES, type LearnedTraffic } from '../../domain/learned-traffic.js';
import { TrafficView } from '../../public/traffic-view.js';

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

/** GET /v2/route/traffic[?at=]: `at`, or now when absent. */
export class RoadTrafficQuery extends Query<ReturnType<typeof roadTraffic>> {
  constructor(readonly at: Date | null) {
    super();
  }
}

@QueryHandler(RoadTrafficQuery)
export class RoadTrafficHandler implements IQueryHandler<RoadTrafficQuery> {
  constructor(
    private readonly view: TrafficView,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ at }: RoadTrafficQuery): Promise<ReturnType<typeof roadTraffic>> {
    return roadTraffic(this.view.learned, at ?? this.clock.now());
  }
}
