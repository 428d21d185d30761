import { DomainError, InvalidParamError } from '../../../platform/src/errors.js';

/** No road dataset is live, or its graph is still being prepared (first start). */
export class RoadNetworkNotLoadedError extends DomainError {
  readonly code = 'ROAD_NETWORK_NOT_LOADED';
  readonly status = 503;
  constructor(message = 'no road network is loaded yet: import one with `npm run ops -- import:roads FILE` (or wait for the starter import)') {
    super(message);
  }
}

/** A point farther than SNAP_RADIUS_M from every road the mode may use (issue #15, "Snapping"). */
export class NoRoadNearbyError extends DomainError {
  readonly code = 'NO_ROAD_NEARBY';
  readonly status = 422;
  override readonly details: Readonly<Record<string, unknown>>;
  constructor(
    override readonly field: string,
    mode: string,
    radiusM: number,
  ) {
    super(`${field} is more than ${radiusM} m from any road a ${mode} route may use`);
    this.details = { point: field, mode, max_snap_distance_m: radiusM };
  }
}

/** Both ends are on roads, but no road connects them for this mode (an island, a one-way trap, access rules). */
export class NoRouteError extends DomainError {
  readonly code = 'NO_ROUTE';
  readonly status = 422;
  override readonly details: Readonly<Record<string, unknown>>;
  constructor(mode: string, leg: number, blockedBy: ReadonlyArray<{ road_id: string; name: string | null; ref: string | null; restriction: string }> = []) {
    super(
      blockedBy.length > 0
        ? `no ${mode} route connects these points: the roads a car would take are closed to ${mode} (${[...new Set(blockedBy.map((road) => road.restriction))].join(', ')})`
        : `no ${mode} route connects these points on the road network`,
    );
    this.details = { mode, leg, ...(blockedBy.length > 0 ? { blocked_by: blockedBy } : {}) };
  }
}

/** The external engine (GraphHopper) did not answer usefully. */
export class RoutingEngineUnavailableError extends DomainError {
  readonly code = 'ROUTING_ENGINE_UNAVAILABLE';
  readonly status = 503;
}

export class InvalidModeError extends InvalidParamError {
  constructor(value: unknown) {
    super(`mode must be one of driving, motor_scooter (alias okada), bicycle, walking; got ${JSON.stringify(String(value)).slice(0, 60)}`, 'mode');
  }
}
