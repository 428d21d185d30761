import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import type { LatLng } from '../routing-engine.port.js';
import type { WeatherConditions } from '../weather-conditions.port.js';
import type { BuiltRoute } from './route-builder.js';

/** Rain counts as likely along a route from this chance (percent) during the trip. */
export const RAIN_LIKELY_PCT = 50;
/**
 * ETA penalty for likely rain, by the most rain expected in an hour (AMS
 * intensity classes): light (< 2.5 mm/h) 10 %, moderate (< 7.6 mm/h) 20 %,
 * heavy 35 % of the trip's time.
 */
export function rainPenaltyShare(mmPerHour: number): number {
  if (mmPerHour < 2.5) return 0.1;
  if (mmPerHour < 7.6) return 0.2;
  return 0.35;
}
/**
 * How much longer a safer route may take and still be recommended over the
 * fastest: 30 % of the fastest's time, but at least 2 and at most 15 minutes.
 */
export const SAFER_EXTRA_SHARE = 0.3;
export const SAFER_EXTRA_MIN_S = 120;
export const SAFER_EXTRA_MAX_S = 900;
export const saferExtraAllowedS = (fastestS: number) => Math.min(SAFER_EXTRA_MAX_S, Math.max(SAFER_EXTRA_MIN_S, fastestS * SAFER_EXTRA_SHARE));
/** Points a route's weather is read at: its ends and one every SAMPLE_SPACING_M, at most MAX_SAMPLES. */
const SAMPLE_SPACING_M = 2000;
const MAX_SAMPLES = 12;

export function samplePoints(coordinates: Array<[number, number]>): LatLng[] {
  if (coordinates.length === 0) return [];
  const points: LatLng[] = [{ lng: coordinates[0][0], lat: coordinates[0][1] }];
  let run = 0;
  for (let index = 1; index < coordinates.length; index++) {
    const [a, b] = [coordinates[index - 1], coordinates[index]];
    run += greatCircleM(a[1], a[0], b[1], b[0]);
    if (run >= SAMPLE_SPACING_M) {
      points.push({ lng: b[0], lat: b[1] });
      run = 0;
    }
  }
  const last = coordinates[coordinates.length - 1];
  points.push({ lng: last[0], lat: last[1] });
  if (points.length <= MAX_SAMPLES) return points;
  const step = (points.length - 1) / (MAX_SAMPLES - 1);
  return Array.from({ length: MAX_SAMPLES }, (_, index) => points[Math.round(index * step)]);
}

/** rain_note and rain_eta_penalty_s on one route, when rain is likely along it during the trip. */
export async function noteRain(route: BuiltRoute, weather: WeatherConditions, departure: Date): Promise<void> {
  const arrival = new Date(departure.getTime() + route.duration_s * 1000);
  const rain = await weather.rainAlong(samplePoints(route.geometry.coordinates), departure, arrival);
  if (!rain || rain.probability_pct < RAIN_LIKELY_PCT) return;
  const share = rainPenaltyShare(rain.max_mm_per_h);
  route.rain_eta_penalty_s = Math.round(route.duration_s * share);
  route.rain_note = `Rain likely along the route during the trip (${Math.round(rain.probability_pct)} % chance, up to ${rain.max_mm_per_h.toFixed(1)} mm in an hour): allow about ${Math.round(share * 100)} % more time`;
}

const hazardous = (route: BuiltRoute) => route.flood_crossings > 0 || route.has_unpaved === true;

/** Is `candidate` safer than `fastest`: fewer flood crossings, or as few and less unpaved road? */
function safer(candidate: BuiltRoute, fastest: BuiltRoute): boolean {
  if (candidate.flood_crossings > fastest.flood_crossings) return false;
  if (candidate.flood_crossings < fastest.flood_crossings) return candidate.unpaved_distance_m <= fastest.unpaved_distance_m || candidate.flood_crossings === 0;
  return candidate.unpaved_distance_m < fastest.unpaved_distance_m;
}

/**
 * Safer routes (issue #16): during likely rain on the fastest route, or when
 * an active CAP flood or rain alert covers it, a route that avoids its fords,
 * flood-prone roads and unpaved roads wins when it costs at most
 * saferExtraAllowedS more. `saferPath` asks the engine for one when no
 * alternative qualifies. Returns the routes reordered (winner first) and the warnings to add.
 */
export async function recommendSafer(
  routes: BuiltRoute[],
  weather: WeatherConditions,
  departure: Date,
  saferPath: () => Promise<BuiltRoute | null>,
): Promise<{ routes: BuiltRoute[]; warning: string | null }> {
  const [fastest] = routes;
  if (!fastest || !hazardous(fastest)) return { routes, warning: null };
  const alert = weather.wetAlertAlong(samplePoints(fastest.geometry.coordinates), departure);
  if (fastest.rain_note === null && alert === null) return { routes, warning: null };
  const allowed = saferExtraAllowedS(fastest.duration_s);
  const fits = (route: BuiltRoute) => safer(route, fastest) && route.duration_s - fastest.duration_s <= allowed;
  let winner = routes.slice(1).filter(fits).sort((a, b) => a.duration_s - b.duration_s)[0] ?? null;
  let extra: BuiltRoute | null = null;
  if (!winner) {
    extra = await saferPath();
    if (extra && fits(extra)) winner = extra;
  }
  const why = [alert ? `an active "${alert}" alert covers the fastest route` : null, fastest.rain_note !== null ? 'rain is likely along the fastest route' : null].filter(Boolean).join(' and ');
  if (!winner) {
    return { routes, warning: `${why}, and it crosses ${fastest.flood_crossings} ford or flood-prone stretch(es)${fastest.has_unpaved ? ' and unpaved road' : ''}; no safer route within ${Math.round(allowed)} s more was found` };
  }
  const avoided = [
    fastest.flood_crossings > winner.flood_crossings ? `${fastest.flood_crossings - winner.flood_crossings} ford or flood-prone crossing(s)` : null,
    fastest.unpaved_distance_m > winner.unpaved_distance_m ? `${Math.round(fastest.unpaved_distance_m - winner.unpaved_distance_m)} m of unpaved road` : null,
  ].filter(Boolean);
  winner.recommended = true;
  winner.recommend_reason = `${why}: this route avoids ${avoided.join(' and ')} for ${Math.round(winner.duration_s - fastest.duration_s)} s more`;
  return { routes: [winner, ...routes.filter((route) => route !== winner)], warning: null };
}
