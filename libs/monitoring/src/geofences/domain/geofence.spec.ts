import { deciderSpec } from '../../../../platform/src/testing/decider-spec.js';
import { InvalidParamError, NotImplementedError } from '../../../../platform/src/errors.js';
import {
  geofenceDecider,
  GeofenceExistsError,
  GeofenceLimitError,
  GeofenceNotFoundError,
  MAX_FENCES_PER_ACCOUNT,
  parseFenceGeometry,
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
  it('answers 501 for isochrones, which need routing', () => {
    expect(() => parseFenceGeometry({ fence_type: 'isochrone', center: { lat: 5.6, lng: -0.19 } })).toThrow(NotImplementedError);
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
