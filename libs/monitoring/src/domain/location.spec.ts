import { latLngToCell } from 'h3-js';
import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { InvalidParamError } from '../../../platform/src/errors.js';
import {
  ConsentRequiredError,
  locationDecider,
  pingOutcomes,
  type FenceMatch,
  type IdentifiedPing,
  type LocationCommand,
  type LocationEvent,
  type RecordPings,
} from './location.js';

const who = { account_id: 'acct_1', customer_id: 'cust-7' };
const now = new Date('2026-11-22T12:00:00.000Z');
const at = (minute: number) => `2026-11-22T11:${String(minute).padStart(2, '0')}:00.000Z`;
// Accra: Makola market, and a point about 3 km north-west of it.
const home = { lat: 5.5497, lng: -0.2107 };
const away = { lat: 5.5755, lng: -0.2301 };
const homeCell = latLngToCell(home.lat, home.lng, 9);
const market: FenceMatch = { fence_id: 'gf_market', fence_type: 'circle', loan_id: 'loan-1' };

let index = 0;
/** A prepared ping; its id is made from its content, as the keyed hash would be. */
function ping(where: { lat: number; lng: number }, minute: number, fences: FenceMatch[] = []): IdentifiedPing {
  return { index: index++, ...where, accuracy_m: null, device_id: null, recorded_at: at(minute), ping_id: `id-${where.lat}-${where.lng}-${minute}`, fences };
}
function record(pings: IdentifiedPing[], known: string[] = []): RecordPings {
  return { type: 'RecordPings', ...who, pings, prepared: { collecting: true, pings, known: new Set(known) } };
}
const zone: LocationCommand = { type: 'RegisterZone', ...who, home_cell: homeCell, tolerance_hops: 2, collecting: true };
const types = (events: readonly LocationEvent[]) => events.map((event) => event.type);

const { given, history } = deciderSpec(locationDecider, now);

describe('location decider', () => {
  beforeEach(() => {
    index = 0;
  });

  describe('consent', () => {
    it('refuses pings unless the consent read after the stream allows collecting, and stores nothing', () => {
      const pings = [ping(home, 1)];
      expect(given([]).when({ type: 'RecordPings', ...who, pings }).error).toBeInstanceOf(ConsentRequiredError);
      expect(given([]).when({ type: 'RecordPings', ...who, pings, prepared: { collecting: false } }).error).toBeInstanceOf(ConsentRequiredError);
    });

    it('refuses a zone without consent, but a bad zone first as a bad zone', () => {
      expect(given([]).when({ ...zone, collecting: false }).error).toBeInstanceOf(ConsentRequiredError);
      const bad = given([]).when({ ...zone, home_cell: 'not-a-cell', collecting: false }).error;
      expect(bad).toBeInstanceOf(InvalidParamError);
      expect(bad).toMatchObject({ field: 'home_hex' });
      expect(given([]).when({ ...zone, tolerance_hops: -1 }).error).toMatchObject({ field: 'tolerance_hops' });
      expect(given([]).when({ ...zone, home_cell: latLngToCell(home.lat, home.lng, 4) }).error).toMatchObject({ field: 'home_hex' });
    });
  });

  describe('drift episodes', () => {
    it('starts one episode per excursion, however many pings are out, and ends it on return', () => {
      const zoned = history(zone);
      const out = given(zoned).when(record([ping(away, 1), ping(away, 2), ping({ lat: away.lat + 0.001, lng: away.lng }, 3)]));
      expect(types(out.events)).toEqual(['PingRecorded', 'DriftStarted', 'PingRecorded', 'PingRecorded']);
      expect(out.events[1]).toMatchObject({ data: { home_cell: homeCell, current_cell: latLngToCell(away.lat, away.lng, 9), occurred_at: at(1) } });
      expect(out.state.drifting).toMatchObject({ since: at(1) });

      const stillOut = given([...zoned, ...out.events]).when(record([ping(away, 4)]));
      expect(types(stillOut.events)).toEqual(['PingRecorded']);

      const back = given([...zoned, ...out.events]).when(record([ping(home, 5)]));
      expect(types(back.events)).toEqual(['PingRecorded', 'DriftEnded']);
      expect(back.events[1]).toMatchObject({ data: { current_cell: homeCell, distance_hops: 0, occurred_at: at(5) } });

      const again = given([...zoned, ...out.events, ...back.events]).when(record([ping(away, 6)]));
      expect(types(again.events)).toEqual(['PingRecorded', 'DriftStarted']);
    });

    it('takes a batch in recorded_at order, whatever order it was sent in', () => {
      const batch = [ping(away, 3), ping(away, 2), ping(home, 1)];
      const decided = given(history(zone)).when(record(batch));
      expect(decided.events.filter((event) => event.type === 'PingRecorded').map((event) => event.data.recorded_at)).toEqual([at(1), at(2), at(3)]);
      expect(types(decided.events)).toEqual(['PingRecorded', 'PingRecorded', 'DriftStarted', 'PingRecorded']);
    });

    it('measures no drift before a zone, and a new zone restarts the watch', () => {
      expect(types(given([]).when(record([ping(away, 1)])).events)).toEqual(['PingRecorded']);
      const drifting = history(zone, record([ping(away, 1)]));
      expect(given(drifting).state.drifting).not.toBeNull();
      expect(given(history(zone, record([ping(away, 1)]), zone)).state.drifting).toBeNull();
    });
  });

  describe('late pings', () => {
    it('stores a ping older than the newest known, but it changes nothing about the present', () => {
      const before = history(zone, record([ping(away, 10)]));
      const old = ping(home, 5);
      const late = given(before).when(record([old]));
      expect(types(late.events)).toEqual(['PingRecorded']);
      expect(late.state.drifting).toEqual(given(before).state.drifting);
      expect(late.state.latest).toMatchObject({ recorded_at: at(10), ...away });
      expect(pingOutcomes([old], given(before).state, late.events)).toEqual([{ index: old.index, status: 'accepted', ping_id: old.ping_id, late: true }]);
    });

    it('a late ping inside a fence enters nothing', () => {
      const before = history(record([ping(away, 10)]));
      expect(types(given(before).when(record([ping(home, 5, [market])])).events)).toEqual(['PingRecorded']);
    });
  });

  describe('geofences', () => {
    it('enters a fence once, stays inside quietly, leaves it, and a re-entry is a new breach', () => {
      const entered = given([]).when(record([ping(home, 1, [market])]));
      expect(types(entered.events)).toEqual(['PingRecorded', 'GeofenceEntered']);
      expect(entered.events[1]).toEqual({
        type: 'GeofenceEntered',
        data: { ...who, fence_id: 'gf_market', fence_type: 'circle', loan_id: 'loan-1', lat: home.lat, lng: home.lng, occurred_at: at(1) },
      });
      const inside = history(record([ping(home, 1, [market])]));
      expect(types(given(inside).when(record([ping(home, 2, [market])])).events)).toEqual(['PingRecorded']);
      const left = given(inside).when(record([ping(away, 3)]));
      expect(types(left.events)).toEqual(['PingRecorded', 'GeofenceLeft']);
      expect(left.state.inside_fences).toEqual([]);
      const reentered = given([...inside, ...left.events]).when(record([ping(home, 4, [market])]));
      expect(types(reentered.events)).toEqual(['PingRecorded', 'GeofenceEntered']);
    });
  });

  describe('de-duplication by ping id', () => {
    it('stores a ping the state has seen, or the index knows, no second time', () => {
      const first = ping(home, 1);
      const stored = history(record([first]));
      expect(given(stored).when(record([{ ...first, index: 0 }])).events).toEqual([]);
      const fromIndex = ping(home, 2);
      expect(given([]).when(record([fromIndex], [fromIndex.ping_id])).events).toEqual([]);
    });

    it('stores equal pings of one batch once, the first in the request; the outcomes say which', () => {
      const a = ping(away, 5);
      const b = { ...a, index: index++ };
      const prepared = record([b, a]);
      const decided = given([]).when(prepared);
      expect(types(decided.events)).toEqual(['PingRecorded']);
      expect(pingOutcomes([b, a], given([]).state, decided.events)).toEqual([
        { index: a.index, status: 'accepted', ping_id: a.ping_id, late: false },
        { index: b.index, status: 'duplicate', ping_id: a.ping_id },
      ]);
    });
  });

  it('stops collection with a marker at the time it is decided', () => {
    expect(given([]).when({ type: 'StopCollection', ...who }).events).toEqual([{ type: 'CollectionStopped', data: { ...who, stopped_at: now.toISOString() } }]);
  });
});
