import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { RoadNetwork } from '../../public/road-network.js';
import { RoutePlanner } from '../../public/route-planner.js';
import { renderStaticMap } from '../../routes/static-map.js';
import { parseLatLngParam } from '../point.query.js';

/** GET /v2/route/static?from&to[&mode]: `from` and `to` as given ("lat,lng"), checked here. */
export class StaticRouteQuery extends Query<Buffer> {
  constructor(
    readonly from: unknown,
    readonly to: unknown,
    readonly mode?: string,
  ) {
    super();
  }
}

/** An 800×500 PNG of the route over the road network around it. */
@QueryHandler(StaticRouteQuery)
export class StaticRouteHandler implements IQueryHandler<StaticRouteQuery> {
  constructor(
    private readonly planner: RoutePlanner,
    private readonly network: RoadNetwork,
  ) {}

  async execute(query: StaticRouteQuery): Promise<Buffer> {
    const from = parseLatLngParam(query.from, 'from');
    const to = parseLatLngParam(query.to, 'to');
    const plan = await this.planner.plan({ from, to, mode: query.mode, detour: false });
    return renderStaticMap(this.network.current(), plan.route.geometry.coordinates);
  }
}
