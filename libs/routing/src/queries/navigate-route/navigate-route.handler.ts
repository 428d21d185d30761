import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { RoutePlanner, type PlanInput } from '../../public/route-planner.js';
import { osrmFeed, type Geometries } from '../../routes/osrm-feed.js';

export type NavigationFeed = ReturnType<typeof osrmFeed>;

/** POST /v2/navigate/route. */
export class NavigateRouteQuery extends Query<NavigationFeed> {
  constructor(
    readonly input: PlanInput,
    readonly geometries: Geometries,
  ) {
    super();
  }
}

/** The route of POST /v2/route as an OSRM / Mapbox Directions v5 document, as navigation SDKs read it. */
@QueryHandler(NavigateRouteQuery)
export class NavigateRouteHandler implements IQueryHandler<NavigateRouteQuery> {
  constructor(private readonly planner: RoutePlanner) {}

  async execute(query: NavigateRouteQuery): Promise<NavigationFeed> {
    return osrmFeed(await this.planner.plan({ ...query.input, detour: false }), query.geometries);
  }
}
