import { InvalidParamError } from '../../../platform/src/errors.js';
import { parseBbox } from '../../../platform/src/index.js';
import type { WeatherConditions } from '../../../routing/src/index.js';
import type { WeatherAlerts } from '../public/alert-log.js';
import { ForecastNotConfiguredError } from '../domain/errors.js';
import type { PrecipitationProvider } from './precipitation-provider.port.js';

export const FORECAST_HOURS = 6;
/** The point cloud is a GRID × GRID lattice over the box. */
export const FORECAST_GRID = 5;
/** Largest box side, in degrees. */
export const MAX_FORECAST_BOX_DEG = 2;
/** Without bbox or lat/lng: Greater Accra, where the starter roads are. */
export const DEFAULT_FORECAST_BOX = { minLng: -0.45, minLat: 5.45, maxLng: 0.15, maxLat: 5.85 } as const;
/** Around lat/lng: a box this many degrees each side (~11 km). */
const AROUND_DEG = 0.1;

export type Box = { minLng: number; minLat: number; maxLng: number; maxLat: number };

/**
 * The area of a forecast or alert query: `bbox` (north,south,east,west, as
 * every bbox of the API; the old minLng,minLat,maxLng,maxLat is still read,
 * and `legacy` says so: docs/adr/0036), or ±AROUND_DEG around lat and lng.
 */
export function parseBox(bbox: string | undefined, lat: number | undefined, lng: number | undefined): { box: Box; legacy: boolean } | null {
  if (bbox !== undefined) {
    const { box, legacy } = parseBbox(bbox, { legacyLngLat: true });
    return { box: { minLng: box.west, minLat: box.south, maxLng: box.east, maxLat: box.north }, legacy };
  }
  if (lat !== undefined || lng !== undefined) {
    if (lat === undefined) throw new InvalidParamError('lat is required with lng', 'lat');
    if (lng === undefined) throw new InvalidParamError('lng is required with lat', 'lng');
    return { box: { minLng: lng - AROUND_DEG, minLat: lat - AROUND_DEG, maxLng: lng + AROUND_DEG, maxLat: lat + AROUND_DEG }, legacy: false };
  }
  return null;
}

/** GET /v2/precipitation-forecast: a point lattice over the box, each point's next 6 hours folded to the highest chance and the total expected. */
export async function precipitationCloud(provider: PrecipitationProvider | null, box: Box) {
  if (!provider) throw new ForecastNotConfiguredError();
  if (box.maxLng - box.minLng > MAX_FORECAST_BOX_DEG || box.maxLat - box.minLat > MAX_FORECAST_BOX_DEG) {
    throw new InvalidParamError(`bbox may span at most ${MAX_FORECAST_BOX_DEG}° each way`, 'bbox');
  }
  const points: Array<{ lat: number; lng: number }> = [];
  for (let row = 0; row < FORECAST_GRID; row++) {
    for (let column = 0; column < FORECAST_GRID; column++) {
      points.push({
        lat: box.minLat + ((box.maxLat - box.minLat) * (row + 0.5)) / FORECAST_GRID,
        lng: box.minLng + ((box.maxLng - box.minLng) * (column + 0.5)) / FORECAST_GRID,
      });
    }
  }
  const forecasts = await provider.hourly(points, FORECAST_HOURS);
  const features = forecasts.map((forecast) => {
    const chances = forecast.hours.map((hour) => hour.probability_pct).filter((value): value is number => value !== null);
    const amounts = forecast.hours.map((hour) => hour.mm).filter((value): value is number => value !== null);
    return {
      type: 'Feature' as const,
      geometry: { type: 'Point' as const, coordinates: [forecast.lng, forecast.lat] },
      properties: {
        max_probability_pct: chances.length ? Math.max(...chances) : null,
        expected_mm: amounts.length ? Math.round(amounts.reduce((sum, value) => sum + value, 0) * 10) / 10 : null,
        hours: forecast.hours.length,
      },
    };
  });
  features.sort((a, b) => (b.properties.max_probability_pct ?? -1) - (a.properties.max_probability_pct ?? -1) || (b.properties.expected_mm ?? 0) - (a.properties.expected_mm ?? 0));
  return { type: 'FeatureCollection' as const, features, hours: FORECAST_HOURS, provider: provider.name };
}

/** Forecasts reach this far ahead (Open-Meteo's default horizon is 7 days; we ask at most 2). */
const MAX_AHEAD_HOURS = 48;

/** Routing's WeatherConditions port, answered from the forecast provider and the CAP alert log. */
export class RouteWeather implements WeatherConditions {
  constructor(
    private readonly provider: PrecipitationProvider | null,
    private readonly alerts: WeatherAlerts,
    private readonly now: () => number = Date.now,
    private readonly onError: (error: Error) => void = () => {},
  ) {}

  async rainAlong(points: Array<{ lat: number; lng: number }>, from: Date, to: Date) {
    if (!this.provider || points.length === 0) return null;
    const hourStart = Math.floor(this.now() / 3_600_000) * 3_600_000;
    const hours = Math.ceil((to.getTime() - hourStart) / 3_600_000) + 1;
    if (to.getTime() < hourStart || hours > MAX_AHEAD_HOURS) return null;
    try {
      const forecasts = await this.provider.hourly(points, Math.max(1, hours));
      const windowStart = Math.floor(from.getTime() / 3_600_000) * 3_600_000;
      let probability = -1;
      let mm = 0;
      for (const forecast of forecasts) {
        for (const hour of forecast.hours) {
          const at = Date.parse(hour.time);
          if (at < windowStart || at > to.getTime()) continue;
          if (hour.probability_pct !== null) probability = Math.max(probability, hour.probability_pct);
          if (hour.mm !== null) mm = Math.max(mm, hour.mm);
        }
      }
      return probability < 0 ? null : { probability_pct: probability, max_mm_per_h: mm };
    } catch (error) {
      this.onError(error as Error);
      return null;
    }
  }

  wetAlertAlong(points: Array<{ lat: number; lng: number }>, at: Date): string | null {
    return this.alerts.wetEventCovering(points, at);
  }
}
