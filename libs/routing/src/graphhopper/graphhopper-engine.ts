import { NotImplementedError } from '../../../platform/src/index.js';
import type { EngineRouteRequest, EngineRouteResult, RoutingEngine } from '../routing-engine.port.js';

/** Placeholder until the adapter lands. */
export class GraphHopperEngine implements RoutingEngine {
  readonly name = 'graphhopper';
  constructor(readonly baseUrl: string) {}
  route(_request: EngineRouteRequest): Promise<EngineRouteResult> {
    return Promise.reject(new NotImplementedError('GraphHopper adapter not built yet'));
  }
}
