import { importance } from './importance.js';
import { normalise } from './normalise.js';
import { cleanAltNames, MAX_NAME_LENGTH, type Place } from './place.js';
import type { OsmTags } from '../../../reference-data/src/index.js';

/**
 * Which OpenStreetMap objects are places worth searching for, and how their
 * tags become a place. A named object qualifies through the first of these
 * keys it carries (the order decides its kind: a bus stop tagged both
 * `highway=bus_stop` and `public_transport=platform` is a `bus_stop`).
 * Roads, land use and untagged geometry are not places.
 */
const POI_KEYS: Array<[key: string, values?: ReadonlySet<string>]> = [
  ['place'],
  ['amenity'],
  ['shop'],
  ['tourism'],
  ['healthcare'],
  ['leisure'],
  ['office'],
  ['historic'],
  ['craft'],
  ['aeroway', new Set(['aerodrome', 'terminal', 'helipad'])],
  ['railway', new Set(['station', 'halt', 'tram_stop'])],
  ['highway', new Set(['bus_stop'])],
  ['public_transport', new Set(['station', 'platform'])],
  ['man_made', new Set(['lighthouse', 'tower', 'water_tower', 'communications_tower', 'bridge'])],
  ['natural', new Set(['peak', 'volcano', 'water', 'beach', 'bay', 'cave_entrance', 'waterfall'])],
  ['building'],
];

const CLASS_SCORES: Record<string, number> = {
  'place=city': 0.75,
  'place=town': 0.55,
  'aeroway=aerodrome': 0.5,
  'place=suburb': 0.4,
  'amenity=university': 0.35,
  'amenity=hospital': 0.35,
  'place=village': 0.3,
  'place=quarter': 0.3,
  'amenity=marketplace': 0.3,
  'amenity=bus_station': 0.3,
  'railway=station': 0.3,
  'tourism=attraction': 0.3,
  'place=neighbourhood': 0.25,
  'amenity=school': 0.2,
  'amenity=college': 0.25,
  'shop=mall': 0.3,
  'place=hamlet': 0.15,
  'place=locality': 0.15,
};
const KEY_SCORES: Record<string, number> = { place: 0.15, amenity: 0.15, tourism: 0.15, aeroway: 0.2, railway: 0.15, leisure: 0.12, historic: 0.15 };
const DEFAULT_SCORE = 0.1;
/** A Wikidata link says someone found the place notable. */
const WIKIDATA_BONUS = 0.1;

const ALT_NAME_KEYS = ['alt_name', 'old_name', 'official_name', 'short_name', 'loc_name', 'int_name', 'reg_name'];
/** Kept for landmarks (interface.md, "Landmark": phone, website, opening_hours, photo_url). */
const EXTRA_TAGS = ['wikidata', 'wikipedia', 'image', 'wikimedia_commons', 'brand', 'operator', 'addr:street', 'addr:housenumber', 'addr:city', 'addr:postcode'];
const MAX_TAG_LENGTH = 255;


/** The tag that makes these tags a place (`amenity=hospital`), or null. */
export function poiFeature(tags: OsmTags): { key: string; value: string } | null {
  if (!tags.name?.trim()) return null;
  for (const [key, values] of POI_KEYS) {
    const value = tags[key];
    if (value === undefined || value === 'no') continue;
    if (values && !values.has(value)) continue;
    return { key, value };
  }
  return null;
}

export function placeFromOsm(type: 'node' | 'way', id: number, tags: OsmTags, lat: number, lng: number): Place | null {
  const poi = poiFeature(tags);
  if (!poi) return null;
  const feature = `${poi.key}=${poi.value}`;
  const name = tags.name.trim().slice(0, MAX_NAME_LENGTH);
  const populationValue = Number((tags.population ?? '').replace(/[ ,]/g, ''));
  const population = Number.isInteger(populationValue) && populationValue > 0 ? populationValue : null;
  const classScore = (CLASS_SCORES[feature] ?? KEY_SCORES[poi.key] ?? DEFAULT_SCORE) + (tags.wikidata ? WIKIDATA_BONUS : 0);
  const extra: Record<string, string> = {};
  for (const key of EXTRA_TAGS) if (tags[key]) extra[key] = tags[key].slice(0, MAX_TAG_LENGTH);
  return {
    id: `osm:${type}/${id}`,
    source: 'osm',
    name,
    alt_names: cleanAltNames(name, alternateNames(tags), normalise),
    kind: poi.value === 'yes' ? poi.key : poi.value,
    feature,
    lat: Math.round(lat * 1e7) / 1e7,
    lng: Math.round(lng * 1e7) / 1e7,
    population,
    importance: importance(population, Math.min(1, classScore)),
    region: null,
    district: null,
    phone: tag(tags, 'phone', 'contact:phone'),
    website: tag(tags, 'website', 'contact:website', 'url'),
    opening_hours: tag(tags, 'opening_hours'),
    ...(Object.keys(extra).length > 0 ? { tags: extra } : {}),
  };
}

function* alternateNames(tags: OsmTags): Iterable<string> {
  for (const key of ALT_NAME_KEYS) if (tags[key]) yield* tags[key].split(';');
  for (const [key, value] of Object.entries(tags)) if (key.startsWith('name:')) yield* value.split(';');
}

function tag(tags: OsmTags, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = tags[key]?.trim();
    if (value) return value.slice(0, MAX_TAG_LENGTH);
  }
  return null;
}

export type { OsmTags };
