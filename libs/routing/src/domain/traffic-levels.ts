/**
 * Severity labels of a traffic factor (documented in the README and ADR 25):
 * unknown (nothing learned), free (< 1.15), moderate (< 1.4), heavy (< 1.8),
 * severe (≥ 1.8), each with its colour.
 */
export const TRAFFIC_LEVELS = [
  { severity: 'free', below: 1.15, color: '#4CAF50' },
  { severity: 'moderate', below: 1.4, color: '#FFC107' },
  { severity: 'heavy', below: 1.8, color: '#FF5722' },
  { severity: 'severe', below: Infinity, color: '#B71C1C' },
] as const;

/** `traffic_source` (ADR 0031): `learned` where the factor came from the traffic model's learned figure, `prior` (the static speeds) otherwise. */
export function trafficLevel(factor: number | undefined): { traffic_factor: number; traffic_severity: string; traffic_color: string; traffic_source: 'learned' | 'prior' } {
  if (factor === undefined) return { traffic_factor: 1, traffic_severity: 'unknown', traffic_color: '#9E9E9E', traffic_source: 'prior' };
  const level = TRAFFIC_LEVELS.find((candidate) => factor < candidate.below)!;
  return { traffic_factor: Math.round(factor * 100) / 100, traffic_severity: level.severity, traffic_color: level.color, traffic_source: 'learned' };
}
