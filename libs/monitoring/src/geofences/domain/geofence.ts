import type { Decider } from '../../../../platform/src/commands/decider.js';
import { DomainError, InvalidParamError } from '../../../../platform/src/errors.js';
import { Circle, MAX_FENCE_LATITUDE, parseLatLng, Polygon, type GeoJsonPolygon, type LatLng, type PolygonLimits, type Shape } from './geometry.js';
import { CALLER_ID } from '../../../../platform/src/ids/caller-id.js';

/**
 * A geofence: a lender's area of interest; a ping of a covered customer that
 * lands inside it fires `geofence_breach` (interface.md, "Events"). One stream
 * per fence, `geofence-<account>:<fence id>`. The geometry is the lender's
 * own definition, not collected location data, so it is stored in clear and
 * outlives any customer's erasure.
 */
export const FENCE_TYPES = ['circle', 'polygon', 'isochrone'] as const;
export type RequestedFenceType = (typeof FENCE_TYPES)[number];
export type FenceType = RequestedFenceType;

export const RADIUS_MIN_M = 10;
export const RADIUS_MAX_M = 50_000;
export const FENCE_POLYGON_LIMITS: PolygonLimits = { maxVertices: 1000, maxHoles: 20, minAreaM2: 100, maxAreaM2: 10_000 * 1e6 };
/** Active fences per account: bounds the memory of the in-process index (a soft limit across instances). */
export const MAX_FENCES_PER_ACCOUNT = 10_000;
export const FENCE_NAME_MAX = 100;
export const FENCE_ID = /^gf_[0-9a-f]{32}$/;
export const LOAN_ID = CALLER_ID;

/** How an isochrone fence was made: stored with it (`GeofenceCreated.isochrone`, absent on other fences). */
export interface IsochroneParameters {
  minutes: number;
  /** The routing mode, canonical (an `okada` request is stored as `motor_scooter`). */
  mode: string;
  /** Where the centre met the road network. */
  snapped: LatLng;
  /** The H3 resolution the reachable roads were outlined at. */
  h3_resolution: number;
}

export type FenceGeometry =
  | { fence_type: 'circle'; center: LatLng; radius_m: number }
  | { fence_type: 'polygon'; polygon: GeoJsonPolygon }
  | { fence_type: 'isochrone'; center: LatLng; polygon: GeoJsonPolygon; isochrone: IsochroneParameters };

/**
 * An isochrone fence as asked: the area is computed on the road network by
 * the command's `prepare` (routing's IsochroneService), which validates
 * `minutes` and `mode` and replaces this with a FenceGeometry.
 */
export interface IsochroneAsked {
  fence_type: 'isochrone';
  center: LatLng;
  minutes: unknown;
  mode: unknown;
  polygon?: undefined;
}
export type AskedGeometry = FenceGeometry | IsochroneAsked;

export interface GeofenceCreated {
  type: 'GeofenceCreated';
  data: {
    account_id: string;
    fence_id: string;
    fence_type: FenceType;
    name: string | null;
    /** null: the fence applies to every customer of the account. */
    customer_id: string | null;
    loan_id: string | null;
    center: LatLng | null;
    radius_m: number | null;
    polygon: GeoJsonPolygon | null;
    /** Isochrone fences only (added with them; absent from older events and other fences). */
    isochrone?: IsochroneParameters;
    created_at: string;
  };
}
export interface GeofenceDeleted {
  type: 'GeofenceDeleted';
  data: { account_id: string; fence_id: string; deleted_at: string };
}
export type GeofenceEvent = GeofenceCreated | GeofenceDeleted;
export const GEOFENCE_EVENT_TYPES = ['GeofenceCreated', 'GeofenceDeleted'] as const satisfies readonly GeofenceEvent['type'][];
export type GeofenceDefinition = GeofenceCreated['data'];

export type GeofenceState =
  | { status: 'none' }
  | { status: 'active'; fence: GeofenceDefinition }
  | { status: 'deleted'; fence: GeofenceDefinition; deleted_at: string };
export const initialGeofenceState: GeofenceState = { status: 'none' };

export class GeofenceNotFoundError extends DomainError {
  readonly code = 'GEOFENCE_NOT_FOUND';
  readonly status = 404;
  constructor(fenceId: string) {
    super(`no geofence ${fenceId} under this account`);
  }
}

export class GeofenceExistsError extends DomainError {
  readonly code = 'GEOFENCE_EXISTS';
  readonly status = 409;
  constructor(fenceId: string) {
    super(`geofence ${fenceId} already exists`);
  }
}

export class GeofenceLimitError extends DomainError {
  readonly code = 'GEOFENCE_LIMIT_REACHED';
  readonly status = 409;
  constructor() {
    super(`an account has at most ${MAX_FENCES_PER_ACCOUNT} active geofences; delete some first`);
  }
}

/** `geofence-<account>:<fence>`: the category has no dash, so EventStoreDB's category projection sees `geofence`. */
export function geofenceStream(accountId: string, fenceId: string): string {
  return `geofence-${accountId}:${fenceId}`;
}

export interface GeometryInput {
  fence_type: RequestedFenceType;
  center?: unknown;
  radius_m?: unknown;
  polygon?: unknown;
  minutes?: unknown;
  mode?: unknown;
}

/** The geometry fields that go with each fence type; the others must be absent. */
export function parseFenceGeometry(input: GeometryInput): AskedGeometry {
  const refuse = (field: string, type: string) => new InvalidParamError(`${field} does not apply to a ${type} fence`, field);
  if (input.fence_type !== 'isochrone') {
    if (input.minutes !== undefined) throw refuse('minutes', input.fence_type);
    if (input.mode !== undefined) throw refuse('mode', input.fence_type);
  }
  switch (input.fence_type) {
    case 'isochrone': {
      if (input.polygon !== undefined) throw refuse('polygon', 'isochrone');
      if (input.radius_m !== undefined) throw refuse('radius_m', 'isochrone');
      if (input.center === undefined) throw new InvalidParamError('an isochrone fence needs center {lat, lng}', 'center');
      if (input.minutes === undefined) throw new InvalidParamError('an isochrone fence needs minutes (the travel time from the centre)', 'minutes');
      return { fence_type: 'isochrone', center: parseLatLng(input.center, 'center', MAX_FENCE_LATITUDE), minutes: input.minutes, mode: input.mode };
    }
    case 'circle': {
      if (input.polygon !== undefined) throw refuse('polygon', 'circle');
      if (input.center === undefined) throw new InvalidParamError('a circle fence needs center {lat, lng}', 'center');
      const center = parseLatLng(input.center, 'center', MAX_FENCE_LATITUDE);
      const radius = input.radius_m;
      if (typeof radius !== 'number' || !Number.isFinite(radius) || radius < RADIUS_MIN_M || radius > RADIUS_MAX_M) {
        throw new InvalidParamError(`radius_m must be a number from ${RADIUS_MIN_M} to ${RADIUS_MAX_M}`, 'radius_m');
      }
      const { dLat, dLng } = Circle.extent(center, radius);
      if (Math.abs(center.lat) + dLat > MAX_FENCE_LATITUDE) {
        throw new InvalidParamError(`a fence must lie between latitudes -${MAX_FENCE_LATITUDE} and ${MAX_FENCE_LATITUDE}`, 'center');
      }
      if (Math.abs(center.lng) + dLng > 180) throw new InvalidParamError('a fence must not cross the antimeridian', 'center');
      return { fence_type: 'circle', center, radius_m: radius };
    }
    case 'polygon': {
      if (input.center !== undefined) throw refuse('center', 'polygon');
      if (input.radius_m !== undefined) throw refuse('radius_m', 'polygon');
      if (input.polygon === undefined) throw new InvalidParamError('a polygon fence needs polygon (a GeoJSON Polygon)', 'polygon');
      return { fence_type: 'polygon', polygon: Polygon.parse(input.polygon, 'polygon', FENCE_POLYGON_LIMITS).toGeoJson() };
    }
    default: {
      const _exhaustive: never = input.fence_type;
      return _exhaustive;
    }
  }
}

/**
 * The isochrone fence made from the area routing computed: its outline must
 * pass the polygon fences' limits (FENCE_POLYGON_LIMITS); one that does not
 * is refused on `minutes`, the field the caller can change.
 */
export function isochroneGeometry(center: LatLng, polygon: unknown, isochrone: IsochroneParameters): FenceGeometry {
  let parsed: GeoJsonPolygon;
  try {
    parsed = Polygon.parse(polygon, 'polygon', FENCE_POLYGON_LIMITS).toGeoJson();
  } catch (error) {
    if (!(error instanceof InvalidParamError)) throw error;
    throw new InvalidParamError(`the area reachable in ${isochrone.minutes} minutes cannot be a fence (${error.message}); change minutes`, 'minutes');
  }
  return { fence_type: 'isochrone', center, polygon: parsed, isochrone };
}

/** The shape of a stored (already validated) fence: an isochrone fence is its polygon. */
export function shapeOf(fence: Pick<GeofenceDefinition, 'fence_type' | 'center' | 'radius_m' | 'polygon'>): Shape {
  if (fence.fence_type === 'circle') {
    if (!fence.center || fence.radius_m === null) throw new Error('a stored circle fence lacks its center or radius');
    return new Circle(fence.center.lat, fence.center.lng, fence.radius_m);
  }
  if (!fence.polygon) throw new Error('a stored polygon fence lacks its polygon');
  return new Polygon(fence.polygon.coordinates.map((ring) => Float64Array.from(ring.flatMap(([lng, lat]) => [lng, lat]))));
}

export function evolveGeofence(state: GeofenceState, event: GeofenceEvent): GeofenceState {
  switch (event.type) {
    case 'GeofenceCreated':
      return { status: 'active', fence: event.data };
    case 'GeofenceDeleted':
      return state.status === 'active' ? { status: 'deleted', fence: state.fence, deleted_at: event.data.deleted_at } : state;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export type GeofenceCommand =
  | {
      type: 'CreateGeofence';
      account_id: string;
      fence_id: string;
      /** An isochrone fence arrives as asked; `prepare` computes its area. */
      geometry: AskedGeometry;
      name: string | null;
      customer_id: string | null;
      loan_id: string | null;
      /** Active fences the account has now: counted from the fence index by the command's `prepare`. */
      active_fences?: number;
    }
  | { type: 'DeleteGeofence'; account_id: string; fence_id: string };

/** Fences are immutable once created: to change one, create the new one and delete the old. */
export function decideGeofence(command: GeofenceCommand, state: GeofenceState, now: Date): GeofenceEvent[] {
  switch (command.type) {
    case 'CreateGeofence': {
      if (state.status !== 'none') throw new GeofenceExistsError(command.fence_id);
      if (command.active_fences === undefined) throw new Error('CreateGeofence reached its decider without the count of active fences');
      if (command.active_fences >= MAX_FENCES_PER_ACCOUNT) throw new GeofenceLimitError();
      const geometry = computed(command.geometry);
      return [
        {
          type: 'GeofenceCreated',
          data: {
            account_id: command.account_id,
            fence_id: command.fence_id,
            fence_type: geometry.fence_type,
            name: command.name,
            customer_id: command.customer_id,
            loan_id: command.loan_id,
            center: geometry.fence_type === 'polygon' ? null : geometry.center,
            radius_m: geometry.fence_type === 'circle' ? geometry.radius_m : null,
            polygon: geometry.fence_type === 'circle' ? null : geometry.polygon,
            ...(geometry.fence_type === 'isochrone' ? { isochrone: geometry.isochrone } : {}),
            created_at: now.toISOString(),
          },
        },
      ];
    }
    case 'DeleteGeofence':
      if (state.status !== 'active') throw new GeofenceNotFoundError(command.fence_id);
      return [{ type: 'GeofenceDeleted', data: { account_id: command.account_id, fence_id: command.fence_id, deleted_at: now.toISOString() } }];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

function computed(geometry: AskedGeometry): FenceGeometry {
  if (geometry.fence_type === 'isochrone' && !('isochrone' in geometry)) throw new Error('an isochrone fence reached its decider without its computed area');
  return geometry as FenceGeometry;
}

/** A geofence stream's aggregate, as the command pipeline runs it. */
export const geofenceDecider: Decider<GeofenceCommand, GeofenceState, GeofenceEvent> = {
  initialState: initialGeofenceState,
  evolve: evolveGeofence,
  decide: decideGeofence,
};
