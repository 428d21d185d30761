import type { ContextManifest } from '../../platform/src/index.js';
import { NavigateRouteQuery } from './queries/navigate-route/navigate-route.handler.js';
import { PlanRouteQuery } from './queries/plan-route/plan-route.handler.js';
import { RouteAlongQuery } from './queries/route-along/route-along.handler.js';
import { StaticRouteQuery } from './queries/static-route/static-route.handler.js';
import { routingDatasets } from './datasets.js';

/**
 * Routing (issue #15): reference data and queries only, so far no stored
 * events; hazard reports and arrival telemetry (issue #16) add theirs here.
 */
export const routingManifest: ContextManifest = {
  name: 'routing',
  events: [],
  queries: [PlanRouteQuery, NavigateRouteQuery, RouteAlongQuery, StaticRouteQuery],
  datasets: routingDatasets,
};
