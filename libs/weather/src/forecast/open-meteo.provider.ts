import { ForecastUnavailableError } from '../domain/errors.js';
import type { PointForecast, PrecipitationProvider } from './precipitation-provider.port.js';

/** One forecast call may take this long, answer included. */
export const FORECAST_TIMEOUT_MS = 8000;
/** An answer larger than this is refused (a few hundred points of 48 hours is ~100 kB). */
export const FORECAST_MAX_BYTES = 2 * 1024 * 1024;
/** Answers are reused this long per point (rounded to 0.01°): forecasts change hourly. */
export const FORECAST_CACHE_MS = 10 * 60_000;
/** Points per provider call (Open-Meteo takes comma-separated coordinate lists). */
const BATCH = 50;

interface OpenMeteoLocation {
  latitude: number;
  longitude: number;
  hourly?: { time?: number[]; precipitation_probability?: Array<number | null>; precipitation?: Array<number | null> };
}

/**
 * The Open-Meteo forecast API (`/v1/forecast?latitude=…&longitude=…
 * &hourly=precipitation_probability,precipitation&forecast_hours=N
 * &timeformat=unixtime`), from the configured base URL. Several points go in
 * one call; a list of locations (or one object for one point) comes back.
 */
export class OpenMeteoProvider implements PrecipitationProvider {
  readonly name = 'open-meteo';
  private readonly cache = new Map<string, { at: number; forecast: PointForecast; hours: number }>();

  constructor(
    private readonly baseUrl: string,
    private readonly now: () => number = Date.now,
  ) {}

  async hourly(points: Array<{ lat: number; lng: number }>, hours: number): Promise<PointForecast[]> {
    const rounded = points.map(({ lat, lng }) => ({ lat: Math.round(lat * 100) / 100, lng: Math.round(lng * 100) / 100 }));
    const keyOf = (point: { lat: number; lng: number }) => `${point.lat},${point.lng}`;
    const missing = [...new Map(rounded.filter((point) => !this.fresh(keyOf(point), hours)).map((point) => [keyOf(point), point])).values()];
    for (let start = 0; start < missing.length; start += BATCH) {
      const batch = missing.slice(start, start + BATCH);
      const answers = await this.fetchBatch(batch, hours);
      batch.forEach((point, index) => this.cache.set(keyOf(point), { at: this.now(), forecast: answers[index], hours }));
    }
    if (this.cache.size > 10_000) this.cache.clear();
    return rounded.map((point) => this.cache.get(keyOf(point))!.forecast);
  }

  private fresh(key: string, hours: number): boolean {
    const entry = this.cache.get(key);
    return entry !== undefined && entry.hours >= hours && this.now() - entry.at < FORECAST_CACHE_MS;
  }

  private async fetchBatch(points: Array<{ lat: number; lng: number }>, hours: number): Promise<PointForecast[]> {
    const url = new URL(this.baseUrl.replace(/\/+$/, '') + '/v1/forecast');
    url.searchParams.set('latitude', points.map((point) => point.lat).join(','));
    url.searchParams.set('longitude', points.map((point) => point.lng).join(','));
    url.searchParams.set('hourly', 'precipitation_probability,precipitation');
    url.searchParams.set('forecast_hours', String(hours));
    url.searchParams.set('timeformat', 'unixtime');
    url.searchParams.set('timezone', 'GMT');
    let body: string;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(FORECAST_TIMEOUT_MS), redirect: 'error' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      if (Number(response.headers.get('content-length') ?? 0) > FORECAST_MAX_BYTES) throw new Error('answer too large');
      body = await response.text();
      if (body.length > FORECAST_MAX_BYTES) throw new Error('answer too large');
    } catch (error) {
      throw new ForecastUnavailableError(`the precipitation forecast provider did not answer: ${(error as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new ForecastUnavailableError('the precipitation forecast provider answered something that is not JSON');
    }
    const locations = (Array.isArray(parsed) ? parsed : [parsed]) as OpenMeteoLocation[];
    if (locations.length !== points.length) throw new ForecastUnavailableError(`the precipitation forecast provider answered ${locations.length} locations for ${points.length}`);
    return locations.map((location, index) => {
      const times = location.hourly?.time ?? [];
      const chance = location.hourly?.precipitation_probability ?? [];
      const amount = location.hourly?.precipitation ?? [];
      return {
        lat: points[index].lat,
        lng: points[index].lng,
        hours: times.slice(0, hours).map((time, hour) => ({
          time: new Date(Number(time) * 1000).toISOString(),
          probability_pct: typeof chance[hour] === 'number' ? chance[hour] : null,
          mm: typeof amount[hour] === 'number' ? amount[hour] : null,
        })),
      };
    });
  }
}

