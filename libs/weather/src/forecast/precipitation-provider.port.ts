/** One point's hourly precipitation forecast. */
export interface PointForecast {
  lat: number;
  lng: number;
  hours: Array<{ time: string; probability_pct: number | null; mm: number | null }>;
}

/** The precipitation forecast source (docs/adr/0026); production: Open-Meteo's API shape. */
export interface PrecipitationProvider {
  readonly name: string;
  /** Hourly forecasts for the points, for the next `hours` hours (from the current hour). */
  hourly(points: Array<{ lat: number; lng: number }>, hours: number): Promise<PointForecast[]>;
}

export const PRECIPITATION_PROVIDER = Symbol('PrecipitationProvider');
