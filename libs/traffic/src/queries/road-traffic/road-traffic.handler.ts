import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../../../platform/src/index.js';
import { trafficLevel } from '../../../../routing/src/index.js';
import { bucketOf, MIN_REPORTERS, MIN_SAMPLES, PRIOR, PRIOR_WEIGHT, REPORTER_WEIGHT_CAP, ROAD_CLASSES, type LearnedTraffic } from '../../domain/learned-traffic.js';
import { TrafficView } from '../../public/traffic-view.js';

/**
 * Congestion per road class at an hour, from the one model routes and the
 * heatmap read (docs/adr/0031). Learned congestion is kept per hex cell and
 * hour, not per road class: a class's figure is the weighted mean of the
 * cells whose figure is learned at that hour (`source: learned`), or the prior
 * where none is (`source: prior`, `prior_source` naming it).
 */
export function roadTraffic(learned: LearnedTraffic, at: Date) {
  const bucket = bucketOf(at);
  let learnedCells = 0;
  let pendingCells = 0;
  let samples = 0;
  let weight = 0;
  let logSum = 0;
  for (const cell of learned.cells()) {
    if (cell.bucket !== bucket) continue;
    samples += cell.samples;
    if (cell.source !== 'learned') {
      pendingCells++;
      continue;
    }
    learnedCells++;
    weight += cell.weight;
    logSum += cell.weight * Math.log(cell.factor);
  }
  const learnedMean = weight > 0 ? Math.exp(logSum / weight) : null;
  return {
    at: at.toISOString(),
    hour: bucket,
    /** Samples at this hour, over every cell (learned or still on the prior). */
    learned_samples: samples,
    learned_cells: learnedCells,
    pending_cells: pendingCells,
    model: { prior: PRIOR.factor, prior_source: PRIOR.source, prior_weight: PRIOR_WEIGHT, min_samples: MIN_SAMPLES, min_reporters: MIN_REPORTERS, reporter_weight_cap: REPORTER_WEIGHT_CAP },
    classes: ROAD_CLASSES.map((roadClass) => {
      const multiplier = learnedMean ?? PRIOR.factor;
      const level = trafficLevel(Math.max(1, multiplier));
      return {
        road_class: roadClass,
        multiplier: Math.round(multiplier * 100) / 100,
        source: learnedMean === null ? ('prior' as const) : ('learned' as const),
        prior: PRIOR.factor,
        prior_source: PRIOR.source,
        severity: level.traffic_severity,
        color: level.traffic_color,
      };
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
