import { InvalidModeError } from './errors.js';

/**
 * Travel modes (interface.md, POST /v2/route: `mode`, default driving, an
 * empty value also driving, `okada` an alias of motor_scooter). Each has its
 * own access rules (which OSM keys decide, which road classes it may use) and
 * speeds; `docs/adr/0018-routing-engine.md` gives the figures.
 */
export const MODES = ['driving', 'motor_scooter', 'bicycle', 'walking'] as const;
export type Mode = (typeof MODES)[number];
export const MODE_ALIASES: Readonly<Record<string, Mode>> = { okada: 'motor_scooter', car: 'driving', foot: 'walking', bike: 'bicycle' };

/** `mode` as a client sends it: absent or empty is driving; case and surrounding spaces ignored; unknown → 400 INVALID_PARAM naming `mode`. */
export function parseMode(value: unknown): Mode {
  if (value === undefined || value === null) return 'driving';
  if (typeof value !== 'string') throw new InvalidModeError(value);
  const text = value.trim().toLowerCase();
  if (text === '') return 'driving';
  if ((MODES as readonly string[]).includes(text)) return text as Mode;
  const alias = MODE_ALIASES[text];
  if (alias) return alias;
  throw new InvalidModeError(value);
}

export type Tags = Readonly<Record<string, string>>;

/**
 * The speed table (docs/adr/0035, issue 29 "Speeds and surfaces where tags
 * are missing"): km/h by highway class and mode, in town (`urban`, the
 * detailed OSM extracts: tuned down from free flow to Accra's typical speeds)
 * and on the open road (`open_road`, the national backbone between towns:
 * Ghana's 80 km/h rural limit less overtaking and villages), then factors for
 * an unpaved surface and for the road's condition (OSM `smoothness`, which the
 * backbone carries from the Ghana Highway Authority's survey), then a tagged
 * `maxspeed` caps it. An okada is slower than a car on open roads and faster
 * on minor ones (it filters through queues and takes tracks), loses less on
 * gravel, and is barred from motorways (L.I. 2180; OSM's moped default).
 * The GraphHopper adapter maps the same factors onto its custom models
 * (graphhopper/speed-model.ts).
 */
export const SPEED_TABLE: {
  urban: Record<Mode, Readonly<Record<string, number>>>;
  open_road: Record<Mode, Readonly<Record<string, number>>>;
  unpaved: Record<Mode, number>;
  smoothness: Readonly<Record<string, Record<Mode, number>>>;
} = {
  urban: {
    driving: {
      motorway: 80, motorway_link: 45, trunk: 60, trunk_link: 40, primary: 45, primary_link: 30, secondary: 38, secondary_link: 28,
      tertiary: 32, tertiary_link: 25, unclassified: 25, residential: 20, living_street: 10, service: 12, road: 20, track: 12,
    },
    motor_scooter: {
      trunk: 50, trunk_link: 38, primary: 42, primary_link: 32, secondary: 38, secondary_link: 30, tertiary: 34, tertiary_link: 28,
      unclassified: 30, residential: 28, living_street: 15, service: 18, road: 28, track: 20,
    },
    bicycle: {
      trunk: 18, trunk_link: 16, primary: 17, primary_link: 16, secondary: 16, secondary_link: 15, tertiary: 16, tertiary_link: 15,
      unclassified: 15, residential: 15, living_street: 12, service: 13, road: 15, track: 11, cycleway: 18, path: 10, bridleway: 8,
      pedestrian: 6, footway: 6, steps: 2,
    },
    walking: {
      trunk: 5, trunk_link: 5, primary: 5, primary_link: 5, secondary: 5, secondary_link: 5, tertiary: 5, tertiary_link: 5,
      unclassified: 5, residential: 5, living_street: 5, service: 5, road: 5, track: 4.5, cycleway: 5, path: 4.5, bridleway: 4.5,
      pedestrian: 5, footway: 5, steps: 2.5,
    },
  },
  open_road: {
    driving: { motorway: 95, trunk: 80, primary: 70, secondary: 60, tertiary: 50, unclassified: 40, road: 40, track: 20 },
    motor_scooter: { trunk: 60, primary: 55, secondary: 50, tertiary: 45, unclassified: 40, road: 40, track: 25 },
    bicycle: { trunk: 20, primary: 19, secondary: 18, tertiary: 17, unclassified: 16, road: 16, track: 12 },
    walking: { trunk: 5, primary: 5, secondary: 5, tertiary: 5, unclassified: 5, road: 5, track: 4.5 },
  },
  unpaved: { driving: 0.6, motor_scooter: 0.8, bicycle: 0.7, walking: 0.95 },
  smoothness: {
    intermediate: { driving: 0.9, motor_scooter: 0.9, bicycle: 0.9, walking: 1 },
    bad: { driving: 0.75, motor_scooter: 0.8, bicycle: 0.75, walking: 1 },
    very_bad: { driving: 0.75, motor_scooter: 0.8, bicycle: 0.75, walking: 1 },
    horrible: { driving: 0.5, motor_scooter: 0.5, bicycle: 0.5, walking: 0.9 },
    very_horrible: { driving: 0.5, motor_scooter: 0.5, bicycle: 0.5, walking: 0.9 },
    impassable: { driving: 0.5, motor_scooter: 0.5, bicycle: 0.5, walking: 0.9 },
  },
};

/** Where a way is: a town's streets (urban speeds) or the open road between towns (the backbone, docs/adr/0035). */
export type Setting = 'urban' | 'open_road';

const SPEEDS = SPEED_TABLE.urban;

/** The fastest a mode goes anywhere (km/h): bounds A* heuristics and learned-traffic plausibility (issue #16). */
export const MAX_SPEED_KMH: Record<Mode, number> = { driving: 100, motor_scooter: 60, bicycle: 25, walking: 6 };

/** Which access keys decide for a mode, least specific first (the most specific tag present wins). */
const ACCESS_KEYS: Record<Mode, readonly string[]> = {
  driving: ['access', 'vehicle', 'motor_vehicle', 'motorcar'],
  motor_scooter: ['access', 'vehicle', 'motor_vehicle', 'motorcycle', 'moped'],
  bicycle: ['access', 'vehicle', 'bicycle'],
  walking: ['access', 'foot'],
};
const DENIED = new Set(['no', 'private', 'agricultural', 'forestry', 'use_sidepath', 'discouraged']);
const ALLOWED = new Set(['yes', 'permissive', 'designated', 'destination', 'delivery', 'customers', 'official', 'public']);

const UNPAVED = new Set([
  'unpaved', 'compacted', 'fine_gravel', 'gravel', 'rock', 'pebblestone', 'ground', 'dirt', 'earth', 'grass', 'grass_paver', 'mud', 'sand', 'woodchips', 'laterite', 'clay', 'soil',
]);
const PAVED = new Set(['paved', 'asphalt', 'chipseal', 'concrete', 'concrete:lanes', 'concrete:plates', 'paving_stones', 'sett', 'unhewn_cobblestone', 'cobblestone', 'metal', 'wood', 'bricks']);

export type SurfaceClass = 'paved' | 'unpaved' | 'unknown';

export function surfaceClass(tags: Tags): SurfaceClass {
  const surface = tags.surface?.toLowerCase();
  if (surface && UNPAVED.has(surface)) return 'unpaved';
  if (surface && PAVED.has(surface)) return 'paved';
  if (tags.highway === 'track') return 'unpaved';
  if (tags.tracktype && tags.tracktype !== 'grade1') return 'unpaved';
  return 'unknown';
}

/** Whether a way is a road this engine reads at all (any mode). */
export function isRoutableHighway(tags: Tags): boolean {
  const highway = tags.highway;
  if (!highway || tags.area === 'yes') return false;
  return MODES.some((mode) => SPEEDS[mode][highway] !== undefined);
}

/** Access of `mode` on a way regardless of direction: the road class's default, then the most specific access tag. */
export function modeAllowed(mode: Mode, tags: Tags): boolean {
  if (!isRoutableHighway(tags)) return false;
  const highway = tags.highway ?? '';
  let allowed = SPEEDS[mode][highway] !== undefined;
  for (const key of ACCESS_KEYS[mode]) {
    const value = tags[key]?.split(';')[0].trim().toLowerCase();
    if (value === undefined) continue;
    if (DENIED.has(value)) allowed = false;
    else if (ALLOWED.has(value)) allowed = true;
  }
  if (mode === 'bicycle' && highway === 'steps') allowed = tags.bicycle === 'yes' || tags.bicycle === 'designated';
  if ((mode === 'driving' || mode === 'motor_scooter') && ['footway', 'path', 'pedestrian', 'cycleway', 'steps', 'bridleway'].includes(highway)) {
    // A foot or cycle path opens to motor traffic only by its own specific tag, never by a general `access=yes`.
    const specific = mode === 'driving' ? ['motor_vehicle', 'motorcar'] : ['motor_vehicle', 'motorcycle', 'moped'];
    allowed = specific.some((key) => ALLOWED.has(tags[key] ?? ''));
  }
  return allowed;
}

/**
 * Why a mode may not use a way (issue 29: "the answer says which restriction
 * made a mode fail"): the deciding tag as `key=value` (`highway=motorway`,
 * `foot=no`, `motorcycle=private`), or null when the mode may use it.
 */
export function accessRestriction(mode: Mode, tags: Tags): string | null {
  if (modeAllowed(mode, tags)) return null;
  for (const key of [...ACCESS_KEYS[mode]].reverse()) {
    const value = tags[key]?.split(';')[0].trim().toLowerCase();
    if (value !== undefined && DENIED.has(value)) return `${key}=${tags[key]}`;
  }
  return `highway=${tags.highway ?? ''}`;
}

export type Direction = 'both' | 'forward' | 'backward' | 'none';

/** Which way a mode may travel a way: OSM `oneway` (`yes`, `-1`, implied by roundabouts and motorways), with the bicycle and foot exceptions. */
export function travelDirection(mode: Mode, tags: Tags): Direction {
  if (!modeAllowed(mode, tags)) return 'none';
  const specific = mode === 'bicycle' ? tags['oneway:bicycle'] : mode === 'walking' ? tags['oneway:foot'] : mode === 'motor_scooter' ? (tags['oneway:moped'] ?? tags['oneway:motorcycle']) : undefined;
  if (mode === 'walking' && specific === undefined) return 'both';
  const value = (specific ?? tags.oneway ?? '').toLowerCase();
  if (value === 'no' || value === 'false' || value === '0') return 'both';
  if (value === '-1' || value === 'reverse') return 'backward';
  if (value === 'yes' || value === 'true' || value === '1') {
    if (mode === 'bicycle' && /^opposite/.test(tags.cycleway ?? '')) return 'both';
    return 'forward';
  }
  if (isRoundabout(tags) || tags.highway === 'motorway') return 'forward';
  return 'both';
}

export function isRoundabout(tags: Tags): boolean {
  return tags.junction === 'roundabout' || tags.junction === 'circular';
}

/** OSM `maxspeed` in km/h (`50`, `30 mph`, `50 km/h`, `40 knots`); null when absent or symbolic (`GH:urban`, `none`, `walk`). */
export function parseMaxspeed(value: string | undefined): number | null {
  if (!value) return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(km\/h|kmh|kph|mph|knots)?\s*$/i.exec(value.split(';')[0]);
  if (!match) return null;
  const number = Number(match[1]);
  const unit = (match[2] ?? 'km/h').toLowerCase();
  const kmh = unit === 'mph' ? number * 1.609344 : unit === 'knots' ? number * 1.852 : number;
  return kmh > 0 && kmh < 300 ? Math.round(kmh * 10) / 10 : null;
}

/**
 * Speed of `mode` on a way in km/h: the class's speed, capped by 90 % of a
 * tagged maxspeed (drivers rarely hold the limit in town), slowed on unpaved
 * or bad surfaces (an okada least, a bicycle most). Null when the mode may not use it.
 */
export function speedKmh(mode: Mode, tags: Tags, setting: Setting = 'urban'): number | null {
  if (!modeAllowed(mode, tags)) return null;
  const highway = tags.highway ?? '';
  let speed = (setting === 'open_road' ? SPEED_TABLE.open_road[mode][highway] : undefined) ?? SPEEDS[mode][highway] ?? (mode === 'walking' ? 5 : mode === 'bicycle' ? 12 : 15);
  const maxspeed = parseMaxspeed(tags.maxspeed);
  if (maxspeed !== null && (mode === 'driving' || mode === 'motor_scooter')) speed = Math.min(speed, maxspeed * 0.9);
  if (surfaceClass(tags) === 'unpaved') speed *= SPEED_TABLE.unpaved[mode];
  const condition = SPEED_TABLE.smoothness[tags.smoothness ?? ''];
  if (condition) speed *= condition[mode];
  if (tags.ford === 'yes' && mode !== 'walking') speed = Math.min(speed, 10);
  return Math.max(1, Math.min(speed, MAX_SPEED_KMH[mode]));
}
