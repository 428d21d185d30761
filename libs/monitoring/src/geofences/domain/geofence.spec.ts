import { deciderSpec } from '../../../../platform/src/testing/decider-spec.js';
import { InvalidParamError } from '../../../../platform/src/errors.js';
import {
  geofenceDecider,
  GeofenceExistsError,
  GeofenceLimitError,
  GeofenceNotFoundError,
  isochroneGeometry,
  MAX_FENCES_PER_ACCOUNT,
  parseFenceGeometry,
  shapeOf,
  type GeofenceCommand,
} from './geofence.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const create = (active_fences = 0): Extract<GeofenceCommand, { type: 'CreateGeofence' }> => ({
  type: 'CreateGeofence',
  account_id: 'acct_1',
  fence_id: 'gf_1',
  geometry: { fence_type: 'circle', center: { lat: 5.6, lng: -0.19 }, radius_m: 200 },
  name: null,
  customer_id: 'cust-1',
  loan_id: 'loan-1',
  active_fences,
});
const remove: GeofenceCommand = { type: 'DeleteGeofence', account_id: 'acct_1', fence_id: 'gf_1' };
const { given, history } = deciderSpec(geofenceDecider, now);

describe('geofence decider', () => {
  it('creates a fence with the geometry of its type and nulls for the other', () => {
    expect(given([]).when(create()).events).toEqual([
      {
        type: 'GeofenceCreated',
        data: {
          account_id: 'acct_1',
          fence_id: 'gf_1',
          fence_type: 'circle',
          name: null,
          customer_id: 'cust-1',
          loan_id: 'loan-1',
          center: { lat: 5.6, lng: -0.19 },
          radius_m: 200,
          polygon: null,
          created_at: now.toISOString(),
        },
      },
    ]);
  });

  const SQUARE = { type: 'Polygon', coordinates: [[[-0.2, 5.6], [-0.19, 5.6], [-0.19, 5.61], [-0.2, 5.61], [-0.2, 5.6]]] };
  const ISOCHRONE = { minutes: 5, mode: 'motor_scooter', snapped: { lat: 5.6051, lng: -0.1949 }, h3_resolution: 9 };

  it('creates an isochrone fence with its centre, its computed polygon and how it was made', () => {
    const geometry = isochroneGeometry({ lat: 5.605, lng: -0.195 }, SQUARE, ISOCHRONE);
    const [event] = given([]).when({ ...create(), geometry }).events;
    expect(event.data).toMatchObject({ fence_type: 'isochrone', center: { lat: 5.605, lng: -0.195 }, radius_m: null, polygon: SQUARE, isochrone: ISOCHRONE });
    if (event.type !== 'GeofenceCreated') return;
    expect(shapeOf(event.data).contains(5.605, -0.195)).toBe(true);
    expect(shapeOf(event.data).contains(5.62, -0.195)).toBe(false);
  });

  it('refuses an isochrone fence whose area was never computed', () => {
    const asked = parseFenceGeometry({ fence_type: 'isochrone', center: { lat: 5.6, lng: -0.19 }, minutes: 5 });
    expect(given([]).when({ ...create(), geometry: asked }).error).toBeInstanceOf(Error);
  });

  it('refuses, on minutes, an isochrone outline the polygon limits refuse', () => {
    const bowtie = { type: 'Polygon', coordinates: [[[0, 0], [0.1, 0.1], [0.1, 0], [0, 0.1], [0, 0]]] };
    expect(() => isochroneGeometry({ lat: 0.05, lng: 0.05 }, bowtie, ISOCHRONE)).toThrow(expect.objectContaining({ field: 'minutes' }));
  });

  it('refuses a second creation of the same id and a creation beyond the account limit', () => {
    expect(given(history(create())).when(create()).error).toBeInstanceOf(GeofenceExistsError);
    expect(given([]).when(create(MAX_FENCES_PER_ACCOUNT)).error).toBeInstanceOf(GeofenceLimitError);
    expect(given([]).when(create(MAX_FENCES_PER_ACCOUNT - 1)).events).toHaveLength(1);
  });

  it('refuses a creation whose active fences were never counted', () => {
    expect(given([]).when({ ...create(), active_fences: undefined }).error).toBeInstanceOf(Error);
  });

  it('deletes an active fence once; an unknown or deleted fence is not found', () => {
    expect(given(history(create())).when(remove).events).toEqual([{ type: 'GeofenceDeleted', data: { account_id: 'acct_1', fence_id: 'gf_1', deleted_at: now.toISOString() } }]);
    expect(given(history(create(), remove)).state).toMatchObject({ status: 'deleted', deleted_at: now.toISOString() });
    expect(given(history(create(), remove)).when(remove).error).toBeInstanceOf(GeofenceNotFoundError);
    expect(given([]).when(remove).error).toBeInstanceOf(GeofenceNotFoundError);
  });
});

describe('parseFenceGeometry', () => {
  it('passes an isochrone on as asked (routing validates minutes and mode), with its centre checked', () => {
    expect(parseFenceGeometry({ fence_type: 'isochrone', center: { lat: 5.6, lng: -0.19 }, minutes: 5, mode: 'okada' })).toEqual({
      fence_type: 'isochrone',
      center: { lat: 5.6, lng: -0.19 },
      minutes: 5,
      mode: 'okada',
    });
  });

  it.each([
    [{ fence_type: 'isochrone', minutes: 5 }, 'center'],
    [{ fence_type: 'isochrone', center: { lat: 5.6, lng: -0.19 } }, 'minutes'],
    [{ fence_type: 'isochrone', center: { lat: 95, lng: -0.19 }, minutes: 5 }, 'center.lat'],
    [{ fence_type: 'isochrone', center: { lat: 5.6, lng: -0.19 }, minutes: 5, radius_m: 100 }, 'radius_m'],
    [{ fence_type: 'circle', center: { lat: 5.6, lng: -0.19 }, radius_m: 100, minutes: 5 }, 'minutes'],
    [{ fence_type: 'polygon', polygon: { type: 'Polygon', coordinates: [[[0, 0], [0.01, 0], [0.01, 0.01]]] }, mode: 'walking' }, 'mode'],
  ] as const)('refuses %j on %s', (input, field) => {
    expect(() => parseFenceGeometry(input)).toThrow(expect.objectContaining({ field }));
  });

  it('normalises a polygon and keeps a circle as given', () => {
    expect(parseFenceGeometry({ fence_type: 'circle', center: { lat: 5.6, lng: -0.19 }, radius_m: 10 })).toEqual({ fence_type: 'circle', center: { lat: 5.6, lng: -0.19 }, radius_m: 10 });
    const polygon = parseFenceGeometry({ fence_type: 'polygon', polygon: { type: 'Polygon', coordinates: [[[0, 0], [0.01, 0], [0.01, 0.01]]] } });
    expect(polygon).toEqual({ fence_type: 'polygon', polygon: { type: 'Polygon', coordinates: [[[0, 0], [0.01, 0], [0.01, 0.01], [0, 0]]] } });
  });

  it.each([
    [{ fence_type: 'circle', center: { lat: 84.9, lng: 0 }, radius_m: 20_000 }, 'center'],
    [{ fence_type: 'circle', center: { lat: 5, lng: 0, alt: 3 }, radius_m: 100 }, 'center.alt'],
    [{ fence_type: 'circle', center: { lat: 5, lng: 0 }, radius_m: Number.NaN }, 'radius_m'],
    [{ fence_type: 'polygon', polygon: { type: 'Polygon', coordinates: [[[0, 0], [0.01, 0], [0.01, 0.01]]] }, radius_m: 5 }, 'radius_m'],
  ] as const)('refuses %j naming %s', (input, field) => {
    let error: unknown;
    try {
      parseFenceGeometry(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidParamError);
    expect((error as InvalidParamError).field).toBe(field);
  });
});
