import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileDatasetStore } from '../../platform/src/index.js';
import { formatGtfsTime, parseClockTime, parseIsoDate } from './domain/clock-time.js';
import { departureBoard } from './domain/departures.js';
import type { TransitNetwork } from './domain/network.js';
import { planTrip, type Plan, type PlannedItinerary } from './domain/planner.js';
import { importGtfs } from './public/import-gtfs.js';
import { SAMPLE_FEED, SAMPLE_STOPS, writeGtfsZip } from './testing/gtfs-feed.js';
import { TransitFeeds } from './public/transit-feeds.js';

/**
 * The planner and the departures board on a generated feed with known answers
 * (testing/gtfs-feed.ts, SAMPLE_FEED), imported and loaded as the service does.
 */
const WEDNESDAY = '2024-06-05';
const THURSDAY = '2024-06-06';
const SATURDAY = '2024-06-08';
const silent = { info: () => undefined, error: () => undefined };

let network: TransitNetwork;
beforeAll(async () => {
  const store = new FileDatasetStore(mkdtempSync(path.join(tmpdir(), 'transit-')));
  await importGtfs(store, writeGtfsZip(SAMPLE_FEED));
  const feeds = new TransitFeeds(store, silent, 0);
  await feeds.start();
  network = feeds.loaded[0].network;
});

type Where = { lat: number; lng: number };
function plan(from: Where, to: Where, date: string, time: string, options: { arriveBy?: boolean; transit?: boolean } = {}): Plan {
  return planTrip(network, { from, to, day: parseIsoDate(date)!, seconds: parseClockTime(time)!, arriveBy: options.arriveBy ?? false, transit: options.transit ?? true });
}

const clock = (seconds: number) => new Date(seconds * 1000).toISOString().slice(11, 19);
/** An itinerary as words: the routes ridden with their times, walks as `walk`. */
function describe_(itinerary: PlannedItinerary): string[] {
  return itinerary.legs.flatMap((leg) => {
    if (leg.kind !== 'ride') return leg.end > leg.start || leg.kind === 'walk' ? [`walk ${clock(leg.start)}-${clock(leg.end)}`] : [];
    const trip = network.trips[leg.trip];
    return [`${network.routes[trip.route].id} ${clock(leg.start)}-${clock(leg.end)}`];
  });
}
const transitOnly = (result: Plan) => result.itineraries.filter((itinerary) => !itinerary.walkOnly);

describe('transit trip planning on a generated feed', () => {
  it('rides a direct line, with the time the feed left empty interpolated by distance', () => {
    const result = plan(SAMPLE_STOPS.A, SAMPLE_STOPS.C, WEDNESDAY, '06:50');
    expect(result.itineraries).toHaveLength(1);
    const [itinerary] = result.itineraries;
    expect(itinerary).toMatchObject({ walkOnly: false, rides: 1 });
    expect(describe_(itinerary)).toEqual(['L1 07:00:00-07:30:00']);
    const ride = itinerary.legs.find((leg) => leg.kind === 'ride')!;
    if (ride.kind !== 'ride') throw new Error('no ride');
    const trip = network.trips[ride.trip];
    // B lies halfway between A and C: 07:15.
    expect(clock(trip.arrivals[1] + ride.shift)).toBe('07:15:00');
    expect(result.notes).toEqual([]);
    expect(result.clockMiss).toBeNull();
  });

  it('changes vehicles with a walk between stops, and keeps the slower one-vehicle trip on the Pareto front', () => {
    const result = plan(SAMPLE_STOPS.A, SAMPLE_STOPS.D, WEDNESDAY, '06:55');
    expect(result.itineraries.map(describe_)).toEqual([
      ['L1 07:00:00-07:30:00', 'walk 07:30:00-07:32:21', 'L2 07:35:00-07:50:00'],
      ['L4 07:05:00-08:20:00'],
    ]);
    expect(result.itineraries.map((itinerary) => itinerary.rides)).toEqual([2, 1]);
  });

  it('rides a headway-only line waiting half the headway, and an exact_times line on its grid', () => {
    const trotro = plan(SAMPLE_STOPS.E, SAMPLE_STOPS.G, WEDNESDAY, '08:00');
    expect(trotro.itineraries.map(describe_)).toEqual([['F 08:05:00-08:25:00']]);
    const ride = trotro.itineraries[0].legs.find((leg) => leg.kind === 'ride');
    expect(ride).toMatchObject({ wait: 300 });
    // Before the window opens, the first vehicle leaves at its start.
    expect(plan(SAMPLE_STOPS.E, SAMPLE_STOPS.G, WEDNESDAY, '05:58').itineraries.map(describe_)).toEqual([['F 06:00:00-06:20:00']]);
    const exact = plan(SAMPLE_STOPS.H, SAMPLE_STOPS.I, WEDNESDAY, '07:01');
    expect(exact.itineraries.map(describe_)).toEqual([['X 07:15:00-07:30:00']]);
  });

  it('runs a weekend service on a Saturday and not on a Wednesday', () => {
    expect(plan(SAMPLE_STOPS.J, SAMPLE_STOPS.K, SATURDAY, '09:00').itineraries.map(describe_)).toEqual([['W 10:00:00-10:40:00']]);
    const weekday = plan(SAMPLE_STOPS.J, SAMPLE_STOPS.K, WEDNESDAY, '09:00');
    expect(weekday.itineraries).toEqual([]);
    expect(weekday.clockMiss).toBeNull();
    expect(weekday.notes).toContain('No vehicle connects these places at this time.');
  });

  it('after the last trip (and before the first), says so with the day’s first and last departure near the origin', () => {
    const late = plan(SAMPLE_STOPS.E, SAMPLE_STOPS.G, WEDNESDAY, '21:00');
    expect(late.itineraries).toEqual([]);
    expect(late.clockMiss).toMatchObject({ side: 'after_last', first: { time: 6 * 3600 }, last: { time: 20 * 3600 } });
    expect(late.notes.join(' ')).toContain('last_trip');
    const early = plan(SAMPLE_STOPS.H, SAMPLE_STOPS.I, WEDNESDAY, '05:00');
    // An exact_times=1 line waits for its first departure: found, not a miss.
    expect(early.itineraries.map(describe_)).toEqual([['X 06:00:00-06:15:00']]);
    const exactLate = plan(SAMPLE_STOPS.H, SAMPLE_STOPS.I, WEDNESDAY, '09:30');
    // The last exact departure is 08:45 (09:00 ends the window).
    expect(exactLate.clockMiss).toMatchObject({ side: 'after_last', last: { time: 8 * 3600 + 45 * 60 } });
  });

  it('rides a trip of the day before whose times pass 24:00:00', () => {
    const result = plan(SAMPLE_STOPS.A, SAMPLE_STOPS.C, THURSDAY, '00:10');
    expect(result.itineraries.map(describe_)).toEqual([['N 00:30:00-01:00:00']]);
  });

  it('with arrive_by, leaves as late as possible and still arrives in time', () => {
    const result = plan(SAMPLE_STOPS.E, SAMPLE_STOPS.G, WEDNESDAY, '09:00', { arriveBy: true });
    const [itinerary] = transitOnly(result);
    expect(itinerary.arrival).toBeLessThanOrEqual(9 * 3600);
    // Ride 20 min after a 5 min expected wait: leave within a minute of 08:35.
    expect(itinerary.departure).toBeGreaterThanOrEqual(8 * 3600 + 34 * 60);
    expect(plan(SAMPLE_STOPS.A, SAMPLE_STOPS.D, WEDNESDAY, '07:55', { arriveBy: true }).itineraries.map(describe_)).toEqual([['L1 07:00:00-07:30:00', 'walk 07:30:00-07:32:21', 'L2 07:35:00-07:50:00']]);
  });

  it('flags walking alone, never passing it off as transit', () => {
    const near = { lat: 5.6, lng: -0.292 };
    const result = plan(SAMPLE_STOPS.A, near, WEDNESDAY, '08:00');
    expect(result.itineraries).toHaveLength(1);
    expect(result.itineraries[0]).toMatchObject({ walkOnly: true, rides: 0 });
    const walking = plan(SAMPLE_STOPS.A, SAMPLE_STOPS.B, WEDNESDAY, '06:50', { transit: false });
    expect(walking.itineraries).toEqual([]);
    expect(walking.notes.join(' ')).toMatch(/walking only/i);
  });

  it('answers an expired calendar with the same weekday of its last week, and a note', () => {
    const result = plan(SAMPLE_STOPS.A, SAMPLE_STOPS.C, '2026-06-03', '06:50');
    expect(result.serviceDay.outOfRange).toBe('ended');
    expect(new Date(result.serviceDay.used * 86_400_000).toISOString().slice(0, 10)).toBe('2024-12-25');
    expect(result.notes[0]).toContain('out of date');
    expect(result.notes[0]).toContain('2024-12-31');
    expect(result.itineraries.map(describe_)).toEqual([['L1 07:00:00-07:30:00']]);
  });
});

describe('the departures board on a generated feed', () => {
  const board = (where: Where, date: string, time: string, radius = 300) => departureBoard(network, where.lat, where.lng, radius, parseIsoDate(date)!, parseClockTime(time)!);
  const describeLines = (result: ReturnType<typeof board>) =>
    result.lines.map((line) => `${network.routes[line.route].id}→${line.destination} at ${network.stops[line.stop].id}:${line.departures.map((d) => ` ${formatGtfsTime(d.time)}`).join(',')}${line.headways.map((h) => ` every ${h.headway}s`).join('')}`);

  it('leaves out lines that only end at the stops, and lists the one that boards there', () => {
    // L1 and N end at C; L2 starts at C2, 145 m away.
    expect(describeLines(board(SAMPLE_STOPS.C, WEDNESDAY, '07:00'))).toEqual(['L2→Delta at C2: 07:35:00']);
  });

  it('gives a trotro’s headway, an exact line’s next departures, and a direct line’s timetable', () => {
    expect(describeLines(board(SAMPLE_STOPS.E, WEDNESDAY, '08:00'))).toEqual(['F→Golf at E: every 600s']);
    expect(describeLines(board(SAMPLE_STOPS.H, WEDNESDAY, '07:01'))).toEqual(['X→India at H: 07:15:00, 07:30:00, 07:45:00']);
    expect(describeLines(board(SAMPLE_STOPS.A, WEDNESDAY, '06:00', 100))).toEqual(['L1→Central at A: 07:00:00', 'L4→Delta at A: 07:05:00', 'N→Central at A: 24:30:00']);
    // Tuesday's night trip left A at 00:30 on Wednesday: still listed just before it goes.
    expect(describeLines(board(SAMPLE_STOPS.A, WEDNESDAY, '00:20', 100))).toContain('N→Central at A: 00:30:00, 24:30:00');
  });

  it('lists a weekend line on a weekday without departures', () => {
    const result = board(SAMPLE_STOPS.J, WEDNESDAY, '09:00');
    expect(describeLines(result)).toEqual(['W→Kilo at J:']);
  });
});
