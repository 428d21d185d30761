import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, type AnswerOf } from '../../../../platform/src/index.js';
import { ACCURACY_WINDOW_DAYS } from '../../domain/learned-traffic.js';
import { TrafficView } from '../../public/traffic-view.js';
import type { TrafficAccuracySchema } from './traffic-accuracy.answer.js';

export type TrafficAccuracy = AnswerOf<typeof TrafficAccuracySchema>;

/** GET /v2/admin/traffic/accuracy. */
export class TrafficAccuracyQuery extends Query<TrafficAccuracy> {}

/** The learned model's MAPE against the static one over the window ending now, and the arrival error summary. */
@QueryHandler(TrafficAccuracyQuery)
export class TrafficAccuracyHandler implements IQueryHandler<TrafficAccuracyQuery> {
  constructor(
    private readonly view: TrafficView,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(): Promise<TrafficAccuracy> {
    const report = this.view.learned.accuracy(this.clock.now().getTime());
    return { window_days: ACCURACY_WINDOW_DAYS, ...report, samples_total: this.view.learned.samples, arrival_error: this.view.learned.arrivalErrorSummary() };
  }
}
