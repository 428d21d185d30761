import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { DAY_S, type DayNumber } from './clock-time.js';
import type { FrequencyRecord } from './feed-records.js';
import type { TransitNetwork } from './network.js';

/**
 * The departures board (GET /v2/transit/departures): the lines one can board
 * at the stops within a radius, one entry per line and destination at the
 * nearest stop it can be boarded at, with the next departures (timetabled or
 * exact_times=1) or the headway (exact_times=0). A stop where a pattern ends
 * is no place to board it: lines that only terminate there are left out.
 * Nor is a line whose last stop is where one already stands (issue 29, item
 * 7: "998 → Circle Overhead" on the Circle Overhead board): one ending at the
 * boarding stop, in its stop cluster (the same parent station, or within
 * STOP_CLUSTER_RADIUS_M), or at another stop of the board.
 */

/** Stops this close are one place to a rider (the far side of a junction, the next bay of a lorry park). */
export const STOP_CLUSTER_RADIUS_M = 500;

export const DEPARTURES_PER_LINE = 3;
export const MAX_BOARD_LINES = 100;

export interface BoardDeparture {
  /** Seconds on the service day's clock (past 86,400 for a trip of the day before still running). */
  time: number;
  trip: number;
  /** exact_times=1 or timetabled: a scheduled time; never an estimate here. */
}

export interface BoardHeadway {
  headway: number;
  /** The window at this stop, on the service day's clock. */
  start: number;
  end: number;
  /** Whether the query time falls inside it. */
  running: boolean;
  trip: number;
}

export interface BoardLine {
  pattern: number;
  route: number;
  stop: number;
  distanceM: number;
  destination: string;
  /** The pattern's last stop. */
  lastStop: number;
  departures: BoardDeparture[];
  headways: BoardHeadway[];
}

export interface Board {
  stops: Array<{ stop: number; distanceM: number }>;
  lines: BoardLine[];
}

export function departureBoard(network: TransitNetwork, lat: number, lng: number, radiusM: number, day: DayNumber, seconds: number): Board {
  const near = network.grid.within(lat, lng, radiusM).filter((hit) => network.stopPatternStart[hit.index + 1] > network.stopPatternStart[hit.index]);
  const active = network.activeOn(day);
  const yesterday = network.reachesIntoNextDay(seconds) ? network.activeOn(day - 1) : null;
  const lines = new Map<string, BoardLine>();
  const onBoard = new Set(near.map((hit) => hit.index));
  for (const hit of near) {
    for (let at = network.stopPatternStart[hit.index]; at < network.stopPatternStart[hit.index + 1]; at++) {
      const pattern = network.patterns[network.stopPatternPattern[at]];
      const position = network.stopPatternPosition[at];
      if (position === pattern.stops.length - 1) continue;
      if (endsWhereItStarts(network, hit.index, pattern.stops[pattern.stops.length - 1], onBoard)) continue;
      const members = [...pattern.trips, ...pattern.frequencyTrips].map((index) => network.trips[index]);
      if (members.every((trip) => trip.noPickup[position])) continue;
      const key = `${pattern.route}\u0000${pattern.destination}`;
      const existing = lines.get(key);
      // The nearest stop of a line wins; at the same stop, patterns of one line and destination are merged.
      if (existing && existing.stop !== hit.index) continue;
      const line = existing ?? {
        pattern: pattern.index,
        route: pattern.route,
        stop: hit.index,
        distanceM: hit.distanceM,
        destination: pattern.destination,
        lastStop: pattern.stops[pattern.stops.length - 1],
        departures: [],
        headways: [],
      };
      lines.set(key, line);
      for (const trip of members) {
        if (trip.noPickup[position]) continue;
        for (const [services, offset] of [
          [active, 0],
          [yesterday, -DAY_S],
        ] as const) {
          if (!services || !services[trip.service]) continue;
          if (trip.frequencies.length === 0) {
            const time = trip.departures[position] + offset;
            if (time >= seconds) line.departures.push({ time, trip: trip.index });
            continue;
          }
          const fromFirst = trip.departures[position] - trip.departures[0];
          for (const frequency of trip.frequencies) addFrequency(line, frequency, fromFirst + offset, seconds, trip.index);
        }
      }
    }
  }
  const board: BoardLine[] = [];
  for (const line of lines.values()) {
    line.departures.sort((a, b) => a.time - b.time);
    line.departures = line.departures.slice(0, DEPARTURES_PER_LINE);
    line.headways.sort((a, b) => a.start - b.start);
    board.push(line);
  }
  board.sort((a, b) => a.distanceM - b.distanceM || a.route - b.route || a.destination.localeCompare(b.destination));
  return { stops: near.map((hit) => ({ stop: hit.index, distanceM: hit.distanceM })), lines: board.slice(0, MAX_BOARD_LINES) };
}

/** Whether a line boarded at `stop` ends where the rider already is: the same stop or cluster, or another stop of the board. */
export function endsWhereItStarts(network: TransitNetwork, stop: number, lastStop: number, onBoard: ReadonlySet<number>): boolean {
  if (lastStop === stop || onBoard.has(lastStop)) return true;
  const from = network.stops[stop];
  const to = network.stops[lastStop];
  if (from.parent >= 0 && from.parent === to.parent) return true;
  return greatCircleM(from.lat, from.lng, to.lat, to.lng) <= STOP_CLUSTER_RADIUS_M;
}

function addFrequency(line: BoardLine, frequency: FrequencyRecord, shift: number, seconds: number, trip: number): void {
  const start = frequency.start + shift;
  const end = frequency.end + shift;
  if (end <= seconds) return;
  if (frequency.exact === 1) {
    const step = Math.max(0, Math.ceil((seconds - start) / frequency.headway));
    for (let i = 0; i < DEPARTURES_PER_LINE; i++) {
      const time = start + (step + i) * frequency.headway;
      if (time >= end) break;
      line.departures.push({ time, trip });
    }
    return;
  }
  line.headways.push({ headway: frequency.headway, start, end, running: seconds >= start, trip });
}
