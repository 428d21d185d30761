import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { RoutePlanner, type PlanInput, type RoutePlan } from '../../public/route-planner.js';

export type PlannedRoute = RoutePlan['route'] & Pick<RoutePlan, 'mode' | 'narration' | 'alternatives' | 'engine' | 'datasets' | 'attribution'>;

/** POST /v2/route. */
export class PlanRouteQuery extends Query<PlannedRoute> {
  constructor(readonly input: PlanInput) {
    super();
  }
}

/** The route with its steps and safer-route flags, its alternatives beside it. */
@QueryHandler(PlanRouteQuery)
export class PlanRouteHandler implements IQueryHandler<PlanRouteQuery> {
  constructor(private readonly planner: RoutePlanner) {}

  async execute(query: PlanRouteQuery): Promise<PlannedRoute> {
    const plan = await this.planner.plan(query.input);
    return {
      mode: plan.mode,
      narration: plan.narration,
      ...plan.route,
      alternatives: plan.alternatives,
      engine: plan.engine,
      datasets: plan.datasets,
      attribution: plan.attribution,
    };
  }
}
