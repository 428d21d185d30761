import type { LatLng } from './routing-engine.port.js';

/**
 * What routing asks of the weather (issue #16, "Safer routes"), implemented
 * by libs/weather so routing never imports it. Absent (no weather context),
 * routes carry no rain note and no weather-driven recommendation.
 */
export interface WeatherConditions {
  /**
   * The most likely rain along the points between `from` and `to`: the highest
   * chance in percent and the most rain expected in an hour (mm). Null when no
   * forecast provider is configured or it cannot answer (a route never fails on weather).
   */
  rainAlong(points: LatLng[], from: Date, to: Date): Promise<{ probability_pct: number; max_mm_per_h: number } | null>;
  /** The event of an active CAP flood or rain alert covering one of the points at `at`, or null. */
  wetAlertAlong(points: LatLng[], at: Date): string | null;
}

export const WEATHER_CONDITIONS = Symbol('WeatherConditions');
