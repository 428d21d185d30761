import { getMetadataStorage } from 'class-validator';
import { InvalidParamError } from '../errors.js';

/**
 * The API's vocabulary (docs/adr/0036): one name for each thing, and the names
 * integrators bring from other APIs mapped to ours, so a refused property says
 * which one to use instead of only "should not exist".
 *
 * Keys are the names we use; values the common other names for the same thing.
 * A synonym is suggested only where the canonical name is accepted by the
 * request at hand, so `code` on a request that takes `address` points to
 * `address`, and nothing is suggested where neither applies.
 */
export const VOCABULARY: Readonly<Record<string, readonly string[]>> = {
  address: ['address_code', 'code', 'hex_code', 'hexcode', 'digital_address', 'gps_address', 'ghanapost_gps', 'plus_code', 'location_code'],
  lat: ['latitude'],
  lng: ['lon', 'long', 'longitude'],
  radius_m: ['radius', 'radius_meters', 'radius_metres'],
  accuracy_m: ['accuracy', 'accuracy_meters', 'accuracy_metres', 'horizontal_accuracy'],
  customer_id: ['customer', 'user_id', 'subject_id'],
  recorded_at: ['timestamp', 'time', 'observed_at', 'captured_at'],
  bbox: ['bounds', 'box', 'extent', 'viewbox'],
  q: ['query', 'text', 'search'],
  tolerance_hops: ['tolerance', 'hops'],
  home_hex: ['home_code', 'zone_code'],
};

const SYNONYM_OF = new Map<string, string>(Object.entries(VOCABULARY).flatMap(([canonical, others]) => others.map((other) => [other, canonical] as const)));

/** The properties a request class declares (its class-validator metadata, inherited ones included), in declaration order. */
export function acceptedProperties(target: Function): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(target, undefined as unknown as string, false, false, undefined);
  return [...new Set(metadata.map((entry) => entry.propertyName))];
}

/**
 * Which accepted property an unknown one most likely means: a synonym of our
 * vocabulary, the snake_case of a camelCase name, or a near spelling (one slip
 * in up to 7 characters, two beyond); null when nothing is close.
 */
export function intendedProperty(unknown: string, accepted: readonly string[]): string | null {
  const allowed = new Set(accepted);
  const lower = unknown.toLowerCase();
  const snake = unknown.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[-\s]+/g, '_').toLowerCase();
  for (const candidate of [lower, snake]) {
    if (candidate !== unknown && allowed.has(candidate)) return candidate;
    const canonical = SYNONYM_OF.get(candidate);
    if (canonical && allowed.has(canonical)) return canonical;
  }
  const budget = snake.length < 4 ? 0 : snake.length < 8 ? 1 : 2;
  let best: string | null = null;
  let bestDistance = budget + 1;
  for (const name of accepted) {
    const distance = editDistance(snake, name, budget);
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return best;
}

/** Levenshtein distance, or max + 1 as soon as it must exceed max. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...current) > max) return max + 1;
    previous = current;
  }
  return Math.min(previous[b.length], max + 1);
}

/**
 * 400 INVALID_PARAM for a property the request does not take: names the
 * properties it does take (`details.accepted`) and, when one is plainly what
 * was meant, that one (`details.use`).
 */
export class UnknownPropertyError extends InvalidParamError {
  override readonly details: Readonly<{ unknown: string; accepted: string[]; use: string | null }>;

  constructor(property: string, field: string, accepted: string[]) {
    const use = intendedProperty(property, accepted);
    const listed = accepted.length > 0 ? `; accepted: ${accepted.join(', ')}` : '; this request takes no properties';
    super(`${property} is not a property of this request${use ? ` (use ${use})` : ''}${listed}`, field);
    this.details = { unknown: property, accepted, use };
  }
}
