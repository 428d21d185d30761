import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileDatasetStore } from '../../platform/src/index.js';
import { parseClockTime, parseIsoDate } from './domain/clock-time.js';
import { departureBoard } from './domain/departures.js';
import type { TransitNetwork } from './domain/network.js';
import { planTrip, type PlannedItinerary } from './domain/planner.js';
import { importGtfs, type GtfsImportResult } from './public/import-gtfs.js';
import { TransitFeeds } from './public/transit-feeds.js';

/**
 * The real Accra trotro feed (AccraMobility 2019: 554 headway-based trips),
 * as the starter pack ships it (starter/ghana, always in the repository; the
 * same bytes as ../shared/data/accra-gtfs, checked when that folder exists).
 */
const root = path.resolve(import.meta.dirname, '../../..');
const starterCopy = path.join(root, 'starter/ghana/transit/GTFS_Accra_20190305.zip');
const sharedCopy = path.join(root, '../shared/data/accra-gtfs/GTFS_Accra_20190305.zip');
const WEDNESDAY = parseIsoDate('2019-06-05')!;
const KANESHIE = { lat: 5.5687, lng: -0.2364 };
const MAKOLA = { lat: 5.5477, lng: -0.2049 };

let imported: GtfsImportResult;
let network: TransitNetwork;
beforeAll(async () => {
  const store = new FileDatasetStore(mkdtempSync(path.join(tmpdir(), 'transit-accra-')));
  imported = await importGtfs(store, starterCopy);
  const feeds = new TransitFeeds(store, { info: () => undefined, error: () => undefined }, 0);
  await feeds.start();
  network = feeds.loaded[0].network;
}, 240_000); // a loaded 2-core machine once took over 60 s to import the feed

/** Every leg starts when the one before ends or later; rides counted; the itinerary's times are its legs'. */
function expectConsistent(itinerary: PlannedItinerary): void {
  let clock = itinerary.departure;
  for (const leg of itinerary.legs) {
    expect(leg.start).toBeGreaterThanOrEqual(clock - 1e-6);
    expect(leg.end).toBeGreaterThanOrEqual(leg.start);
    clock = leg.end;
  }
  expect(itinerary.arrival).toBeCloseTo(clock, 6);
  expect(itinerary.legs.filter((leg) => leg.kind === 'ride')).toHaveLength(itinerary.rides);
  expect(itinerary.walkOnly).toBe(itinerary.rides === 0);
}

describe('the Accra trotro feed', () => {
  it('imports without a skipped row: 4,171 stops, 277 routes, 554 headway-based trips', () => {
    expect(imported.report.list().filter((problem) => problem.severity !== 'warning')).toEqual([]);
    expect(imported.stats).toMatchObject({ stops: 4171, routes: 277, trips: 554, frequency_trips: 554, exact_times_trips: 0, stop_times: 11_336, shapes: 554 });
    expect(network.startDay).toBe(parseIsoDate('2019-03-04'));
    expect(network.endDay).toBe(parseIsoDate('2020-01-31'));
  });

  it('is the same file as ../shared/data/accra-gtfs', () => {
    if (!existsSync(sharedCopy)) {
      process.stderr.write(`${sharedCopy} is absent: comparing the starter copy with it is skipped\n`);
      return;
    }
    const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
    expect(digest(starterCopy)).toBe(digest(sharedCopy));
  });

  it('takes trotros from Kaneshie to Makola on a weekday morning, along the routes’ shapes', () => {
    const plan = planTrip(network, { from: KANESHIE, to: MAKOLA, day: WEDNESDAY, seconds: parseClockTime('08:00')!, arriveBy: false, transit: true });
    const rides = plan.itineraries.filter((itinerary) => !itinerary.walkOnly);
    expect(rides.length).toBeGreaterThan(0);
    for (const itinerary of plan.itineraries) expectConsistent(itinerary);
    for (const leg of rides.flatMap((itinerary) => itinerary.legs)) {
      if (leg.kind !== 'ride') continue;
      const trip = network.trips[leg.trip];
      expect(trip.frequencies[leg.frequency]).toMatchObject({ exact: 0 });
      expect(leg.wait).toBe(Math.floor(trip.frequencies[leg.frequency].headway / 2));
      expect(trip.shapeAt).not.toBeNull();
    }
  });

  it('answers random stop pairs with consistent, Pareto-optimal itineraries (at most 3)', () => {
    const boardable = network.stops.filter((stop) => !stop.station && network.stopPatternStart[stop.index + 1] > network.stopPatternStart[stop.index]);
    let seed = 17;
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647);
    let withTransit = 0;
    const pairs = 40;
    for (let i = 0; i < pairs; i++) {
      const from = boardable[Math.floor(random() * boardable.length)];
      const to = boardable[Math.floor(random() * boardable.length)];
      const plan = planTrip(network, { from, to, day: WEDNESDAY, seconds: parseClockTime('08:00')!, arriveBy: false, transit: true });
      expect(plan.itineraries.length).toBeLessThanOrEqual(3);
      for (const itinerary of plan.itineraries) expectConsistent(itinerary);
      for (const a of plan.itineraries) {
        const dominated = plan.itineraries.some((b) => b !== a && b.arrival <= a.arrival && b.rides <= a.rides && (b.arrival < a.arrival || b.rides < a.rides));
        expect(dominated).toBe(false);
      }
      if (plan.itineraries.some((itinerary) => !itinerary.walkOnly)) withTransit++;
    }
    // The network is one city's trotro lines: nearly every pair connects within four changes.
    expect(withTransit / pairs).toBeGreaterThan(0.8);
  });

  it('lists the trotro lines boardable near Kaneshie with their headways, none that only ends there', () => {
    const board = departureBoard(network, KANESHIE.lat, KANESHIE.lng, 400, WEDNESDAY, parseClockTime('08:00')!);
    expect(board.lines.length).toBeGreaterThan(3);
    for (const line of board.lines) {
      const pattern = network.patterns[line.pattern];
      expect(line.distanceM).toBeLessThanOrEqual(400);
      expect(pattern.stops[pattern.stops.length - 1]).not.toBe(line.stop);
      expect(line.headways.length).toBeGreaterThan(0);
    }
  });

  it('still serves in 2026, from the feed’s last week, saying the timetable ended on 2020-01-31', () => {
    const plan = planTrip(network, { from: KANESHIE, to: MAKOLA, day: parseIsoDate('2026-11-25')!, seconds: parseClockTime('08:00')!, arriveBy: false, transit: true });
    expect(plan.serviceDay.outOfRange).toBe('ended');
    expect(plan.notes[0]).toContain('2020-01-31');
    expect(plan.itineraries.some((itinerary) => !itinerary.walkOnly)).toBe(true);
  });
});
