import { DAY_S, type DayNumber } from './clock-time.js';
import type { TransitNetwork } from './network.js';

/**
 * RAPTOR (Delling, Pajor, Werneck: "Round-Based Public Transit Routing",
 * 2012): round k finds the earliest arrival at every stop with at most k
 * vehicles, by scanning each pattern touched in the previous round once, from
 * its first improved stop, and then relaxing the walking transfers. The best
 * arrival at the destination after each round that improves it is one point
 * of the Pareto front of arrival time × number of vehicles (docs/adr/0019).
 *
 * Vehicles of a pattern come from two sources:
 *   - timetabled trips (stop_times), earliest first;
 *   - frequencies.txt: with exact_times=1 departures every headway from the
 *     window's start (a timetable in all but name); with exact_times=0 a
 *     headway and nothing more, so a rider reaching the stop at t inside the
 *     window boards, in expectation, half a headway later (t + h/2); before
 *     the window, the first vehicle at its start. The ride takes the
 *     template's travel times. Boarding time never decreases as t grows, which
 *     is all RAPTOR needs of a vehicle family.
 * A trip of the day before whose times pass 24:00:00 runs today, shifted by a day.
 */

export const MAX_ROUNDS = 5;

export interface StopAccess {
  stop: number;
  seconds: number;
  distanceM: number;
}

export interface RaptorQuery {
  /** The timetable day (see TransitNetwork.serviceDay). */
  day: DayNumber;
  /** Seconds after that day's start. */
  departure: number;
  access: StopAccess[];
  egress: StopAccess[];
  /** Most vehicles in one journey (default MAX_ROUNDS). */
  maxRounds?: number;
}

export type RaptorLeg =
  | { kind: 'access'; stop: number; start: number; end: number; distanceM: number }
  | { kind: 'transfer'; from: number; to: number; start: number; end: number }
  | { kind: 'egress'; stop: number; start: number; end: number; distanceM: number }
  | {
      kind: 'ride';
      trip: number;
      /** Added to the trip's stop times to get this vehicle's (a day back for yesterday's trips; the departure's offset for frequency trips). */
      shift: number;
      /** The frequencies.txt row, or -1 for a timetabled trip. */
      frequency: number;
      /** Expected wait at the boarding stop, already inside `start` (headway-based trips). */
      wait: number;
      boardPosition: number;
      alightPosition: number;
      /** The vehicle's departure from the boarding stop and arrival at the alighting stop. */
      start: number;
      end: number;
    };

export interface Journey {
  rides: number;
  departure: number;
  arrival: number;
  legs: RaptorLeg[];
}

const INHERITED = 0;
const ACCESS = 1;
const RIDE = 2;
const TRANSFER = 3;

interface Vehicle {
  trip: number;
  shift: number;
  frequency: number;
  wait: number;
  departure: number;
}

/**
 * Label arrays for one network, reused by every search: a search runs to
 * completion synchronously, so one set serves them all, and a query allocates
 * next to nothing (no garbage to collect between requests).
 */
class Workspace {
  readonly size: number;
  readonly best: Float64Array;
  readonly how: Uint8Array;
  readonly transferFrom: Int32Array;
  readonly ride: Float64Array;
  readonly rideTrip: Int32Array;
  readonly rideShift: Float64Array;
  readonly rideFrequency: Int32Array;
  readonly rideWait: Float64Array;
  readonly rideBoard: Int32Array;
  readonly rideAlight: Int32Array;
  readonly marked: Uint8Array;
  readonly queuedFrom: Int32Array;

  constructor(
    readonly stops: number,
    patterns: number,
    readonly rounds: number,
  ) {
    this.size = stops * (rounds + 1);
    this.best = new Float64Array(this.size);
    this.how = new Uint8Array(this.size);
    this.transferFrom = new Int32Array(this.size);
    this.ride = new Float64Array(this.size);
    this.rideTrip = new Int32Array(this.size);
    this.rideShift = new Float64Array(this.size);
    this.rideFrequency = new Int32Array(this.size);
    this.rideWait = new Float64Array(this.size);
    this.rideBoard = new Int32Array(this.size);
    this.rideAlight = new Int32Array(this.size);
    this.marked = new Uint8Array(stops);
    this.queuedFrom = new Int32Array(patterns).fill(-1);
  }

  reset(rounds: number): void {
    const used = this.stops * (rounds + 1);
    this.best.fill(Infinity, 0, used);
    this.ride.fill(Infinity, 0, used);
    this.how.fill(INHERITED, 0, used);
  }
}

const MAX_SEARCH_ROUNDS = 8;
const workspaces = new WeakMap<TransitNetwork, Workspace>();

/** Journeys that each arrive strictly earlier than every one with fewer vehicles, fewest vehicles first. */
export function raptor(network: TransitNetwork, query: RaptorQuery): Journey[] {
  const n = network.stops.length;
  const rounds = Math.max(1, Math.min(query.maxRounds ?? MAX_ROUNDS, MAX_SEARCH_ROUNDS));
  let space = workspaces.get(network);
  if (!space) {
    space = new Workspace(n, network.patterns.length, MAX_SEARCH_ROUNDS);
    workspaces.set(network, space);
  }
  space.reset(rounds);
  const { best, how, transferFrom, ride, rideTrip, rideShift, rideFrequency, rideWait, rideBoard, rideAlight, marked, queuedFrom } = space;
  const accessDistance = new Map<number, number>();
  const active = network.activeOn(query.day);
  // Yesterday's trips only matter when some run past midnight far enough to reach the query.
  const activeYesterday = network.reachesIntoNextDay(query.departure) ? network.activeOn(query.day - 1) : null;

  let markedList: number[] = [];
  const mark = (stop: number) => {
    if (!marked[stop]) {
      marked[stop] = 1;
      markedList.push(stop);
    }
  };
  for (const access of query.access) {
    const time = query.departure + access.seconds;
    if (time < best[access.stop]) {
      best[access.stop] = time;
      how[access.stop] = ACCESS;
      accessDistance.set(access.stop, access.distanceM);
      mark(access.stop);
    }
  }

  const journeys: Journey[] = [];
  let bestTarget = Infinity;

  for (let k = 1; k <= rounds && markedList.length > 0; k++) {
    const base = k * n;
    const previousBase = base - n;
    best.copyWithin(base, previousBase, base);

    // Patterns through the stops improved last round, each from its first such stop.
    const queue: number[] = [];
    for (const stop of markedList) {
      marked[stop] = 0;
      for (let at = network.stopPatternStart[stop]; at < network.stopPatternStart[stop + 1]; at++) {
        const pattern = network.stopPatternPattern[at];
        const position = network.stopPatternPosition[at];
        if (queuedFrom[pattern] === -1) queue.push(pattern);
        if (queuedFrom[pattern] === -1 || position < queuedFrom[pattern]) queuedFrom[pattern] = position;
      }
    }
    markedList = [];
    const ridden: number[] = [];

    for (const patternIndex of queue) {
      const from = queuedFrom[patternIndex];
      queuedFrom[patternIndex] = -1;
      const stops = network.patterns[patternIndex].stops;
      let vehicle: Vehicle | null = null;
      let boardPosition = -1;
      for (let position = from; position < stops.length; position++) {
        const stop = stops[position];
        const at = base + stop;
        if (vehicle) {
          const trip = network.trips[vehicle.trip];
          if (!trip.noDropOff[position]) {
            const arrival = trip.arrivals[position] + vehicle.shift;
            if (arrival < best[at] && arrival < bestTarget) {
              best[at] = arrival;
              how[at] = RIDE;
              ride[at] = arrival;
              rideTrip[at] = vehicle.trip;
              rideShift[at] = vehicle.shift;
              rideFrequency[at] = vehicle.frequency;
              rideWait[at] = vehicle.wait;
              rideBoard[at] = boardPosition;
              rideAlight[at] = position;
              if (!marked[stop]) ridden.push(stop);
              mark(stop);
            }
          }
        }
        const ready = best[previousBase + stop];
        if (ready === Infinity || position === stops.length - 1) continue;
        if (vehicle && ready > network.trips[vehicle.trip].departures[position] + vehicle.shift) continue;
        const candidate = earliestVehicle(network, patternIndex, position, ready, active, activeYesterday);
        if (candidate && (!vehicle || candidate.departure < network.trips[vehicle.trip].departures[position] + vehicle.shift)) {
          vehicle = candidate;
          boardPosition = position;
        }
      }
    }

    // Walking transfers from the stops reached by a vehicle this round.
    for (const stop of ridden) {
      const arrived = ride[base + stop];
      for (let at = network.transferStart[stop]; at < network.transferStart[stop + 1]; at++) {
        const to = network.transferTo[at];
        const time = arrived + network.transferSeconds[at];
        if (time < best[base + to] && time < bestTarget) {
          best[base + to] = time;
          how[base + to] = TRANSFER;
          transferFrom[base + to] = stop;
          mark(to);
        }
      }
    }

    let improvedBy: StopAccess | null = null;
    for (const egress of query.egress) {
      const time = ride[base + egress.stop] + egress.seconds;
      if (time < bestTarget) {
        bestTarget = time;
        improvedBy = egress;
      }
    }
    if (improvedBy) journeys.push(reconstruct(k, improvedBy));
  }
  for (const stop of markedList) marked[stop] = 0;
  return journeys;

  function reconstruct(round: number, egress: StopAccess): Journey {
    const arrivedAt = ride[round * n + egress.stop];
    const legs: RaptorLeg[] = [{ kind: 'egress', stop: egress.stop, start: arrivedAt, end: arrivedAt + egress.seconds, distanceM: egress.distanceM }];
    let k = round;
    let stop = egress.stop;
    let rides = 0;
    for (;;) {
      // At (k, stop) by a vehicle of round k.
      const at = k * n + stop;
      const trip = network.trips[rideTrip[at]];
      const boardPosition = rideBoard[at];
      const shift = rideShift[at];
      legs.unshift({
        kind: 'ride',
        trip: trip.index,
        shift,
        frequency: rideFrequency[at],
        wait: rideWait[at],
        boardPosition,
        alightPosition: rideAlight[at],
        start: trip.departures[boardPosition] + shift,
        end: ride[at],
      });
      rides++;
      stop = network.patterns[trip.pattern].stops[boardPosition];
      k--;
      while (k > 0 && how[k * n + stop] === INHERITED) k--;
      const kind = how[k * n + stop];
      if (kind === ACCESS || k === 0) {
        legs.unshift({ kind: 'access', stop, start: query.departure, end: best[stop], distanceM: accessDistance.get(stop) ?? 0 });
        break;
      }
      if (kind === TRANSFER) {
        const from = transferFrom[k * n + stop];
        legs.unshift({ kind: 'transfer', from, to: stop, start: ride[k * n + from], end: best[k * n + stop] });
        stop = from;
      }
      // RIDE: changing vehicles at the same stop; the loop continues with the ride that reached it.
    }
    return { rides, departure: query.departure, arrival: arrivedAt + egress.seconds, legs };
  }
}

/** The vehicle of a pattern leaving `position` earliest at or after `ready` (seconds on the query day's clock). */
function earliestVehicle(network: TransitNetwork, patternIndex: number, position: number, ready: number, active: Uint8Array, activeYesterday: Uint8Array | null): Vehicle | null {
  const pattern = network.patterns[patternIndex];
  let best: Vehicle | null = null;
  for (let instance = 0; instance < 2; instance++) {
    const services = instance === 0 ? active : activeYesterday;
    if (!services) continue;
    const offset = instance === 0 ? 0 : -DAY_S;
    const local = ready - offset;

    // Timetabled trips: the first active one departing at or after `local` (binary search, then skip inactive ones).
    const trips = pattern.trips;
    let low = 0;
    let high = trips.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (network.trips[trips[middle]].departures[position] < local) low = middle + 1;
      else high = middle;
    }
    for (let i = low; i < trips.length; i++) {
      const trip = network.trips[trips[i]];
      if (!services[trip.service] || trip.noPickup[position]) continue;
      const departure = trip.departures[position] + offset;
      if (!best || departure < best.departure) best = { trip: trip.index, shift: offset, frequency: -1, wait: 0, departure };
      break;
    }

    for (const tripIndex of pattern.frequencyTrips) {
      const trip = network.trips[tripIndex];
      if (!services[trip.service] || trip.noPickup[position]) continue;
      const fromFirst = trip.departures[position] - trip.departures[0];
      trip.frequencies.forEach((frequency, f) => {
        let departure: number;
        let wait = 0;
        if (frequency.exact === 1) {
          const step = Math.max(0, Math.ceil((local - frequency.start - fromFirst) / frequency.headway));
          const first = frequency.start + step * frequency.headway;
          if (first >= frequency.end) return;
          departure = first + fromFirst;
        } else {
          if (local >= frequency.end + fromFirst) return;
          // Before the window the first vehicle is awaited; inside it, one comes half a headway later in expectation.
          departure = local <= frequency.start + fromFirst ? frequency.start + fromFirst : local + Math.floor(frequency.headway / 2);
          wait = departure - local;
        }
        const absolute = departure + offset;
        if (!best || absolute < best.departure) best = { trip: tripIndex, shift: departure - trip.departures[position] + offset, frequency: f, wait, departure: absolute };
      });
    }
  }
  return best;
}
