import { createHash } from 'node:crypto';
import { normalise } from '../../domain/normalise.js';
import type { Place } from '../../domain/place.js';

/**
 * Landmarks: the places of the reference data a person steers by ("turn left
 * after the Total filling station", "opposite Makola Market"). They are the
 * point-like, named, visible things of the place sets; settlements, admin
 * areas, land cover and water are places but not landmarks (docs/adr/0013).
 */
export interface Landmark {
  /** Stable, URL-safe identity: `<name words>-<10-character hash of the source id>`; the hash alone identifies it. */
  slug: string;
  /** The hash part of the slug: what report streams are named by, so a renamed landmark keeps its reports. */
  key: string;
  place: Place;
  /** A picture of it, only where the source names one (OSM `image` / `wikimedia_commons`); never invented. */
  photo_url: string | null;
}

/**
 * OSM: which `key=value` make a landmark. A key mapped to `true` admits every
 * value but those listed in EXCLUDED_OSM; a set admits only its values.
 * `place=*` (settlements, neighbourhoods) and `natural=*` (areas) are not landmarks.
 */
const OSM_LANDMARK_KEYS: Record<string, true | ReadonlySet<string>> = {
  amenity: true,
  shop: true,
  tourism: true,
  healthcare: true,
  leisure: new Set(['stadium', 'park', 'sports_centre', 'golf_course', 'water_park', 'marina', 'garden', 'amusement_arcade', 'fitness_centre']),
  office: true,
  historic: true,
  craft: true,
  aeroway: true,
  railway: true,
  highway: new Set(['bus_stop']),
  public_transport: new Set(['station', 'platform']),
  man_made: new Set(['lighthouse', 'tower', 'water_tower', 'communications_tower', 'bridge']),
  building: true,
};

/** Street furniture and amenities too small or too many to steer by, even when named. */
const EXCLUDED_OSM = new Set([
  'amenity=bench',
  'amenity=waste_basket',
  'amenity=waste_disposal',
  'amenity=recycling',
  'amenity=parking_space',
  'amenity=bicycle_parking',
  'amenity=motorcycle_parking',
  'amenity=post_box',
  'amenity=vending_machine',
  'amenity=drinking_water',
  'amenity=telephone',
  'amenity=toilets',
  'amenity=shower',
  'amenity=clock',
  'amenity=grit_bin',
  'amenity=hunting_stand',
  'tourism=information',
  'building=house',
  'building=residential',
  'building=apartments',
  'building=garage',
  'building=shed',
  'building=hut',
]);

/**
 * GeoNames: class S (spots and buildings: schools, hospitals, churches,
 * markets, hotels, stadiums, stations, castles, lighthouses…) except farms,
 * camps and estates, which in Ghana's dump are settlements; plus parks and ports.
 */
const GEONAMES_EXCLUDED_S = new Set(['S.CMP', 'S.FRM', 'S.EST']);
const GEONAMES_EXTRA = new Set(['L.PRK', 'L.PRT']);

export function isLandmark(place: Place): boolean {
  if (place.source === 'geonames') {
    if (GEONAMES_EXTRA.has(place.feature)) return true;
    return place.feature.startsWith('S.') && !GEONAMES_EXCLUDED_S.has(place.feature);
  }
  const separator = place.feature.indexOf('=');
  const key = place.feature.slice(0, separator);
  const value = place.feature.slice(separator + 1);
  const rule = OSM_LANDMARK_KEYS[key];
  if (rule === undefined || EXCLUDED_OSM.has(place.feature)) return false;
  return rule === true || rule.has(value);
}

/** Crockford's base-32 in lower case: no i, l, o, u, so a slug read aloud or retyped survives. */
const KEY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** 50 bits: for a million landmarks the chance of any collision is under 1 in 2,000 (and the index reports one). */
export const LANDMARK_KEY_LENGTH = 10;
const MAX_SLUG_NAME_WORDS = 6;
const MAX_SLUG_NAME_LENGTH = 48;
export const MAX_SLUG_LENGTH = MAX_SLUG_NAME_LENGTH + 1 + LANDMARK_KEY_LENGTH;
export const SLUG_PATTERN = new RegExp(`^(?:[a-z0-9]+-){0,${MAX_SLUG_NAME_WORDS}}[${KEY_ALPHABET}]{${LANDMARK_KEY_LENGTH}}$`);

/** The hash part of a slug: the first LANDMARK_KEY_LENGTH base-32 digits of SHA-256 of the source id (`osm:node/123`). */
export function landmarkKey(placeId: string): string {
  const digest = createHash('sha256').update(placeId, 'utf8').digest();
  let key = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of digest) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && key.length < LANDMARK_KEY_LENGTH) {
      key += KEY_ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
    if (key.length === LANDMARK_KEY_LENGTH) break;
  }
  return key;
}

/**
 * `makola-market-4k7q2m9x1d`: the name's words (ASCII letters and digits after
 * normalisation, at most six) and the key. Only the key identifies: a slug
 * whose name part is stale (the landmark was renamed) or missing still resolves.
 */
export function landmarkSlug(place: Pick<Place, 'id' | 'name'>): string {
  const words = normalise(place.name)
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(' ')
    .filter((word) => word !== '')
    .slice(0, MAX_SLUG_NAME_WORDS);
  let name = '';
  for (const word of words) {
    const next = name === '' ? word : `${name}-${word}`;
    if (next.length > MAX_SLUG_NAME_LENGTH) break;
    name = next;
  }
  const key = landmarkKey(place.id);
  return name === '' ? key : `${name}-${key}`;
}

/** The key of a slug (its last part), or null when the text cannot be a slug. */
export function keyOfSlug(slug: string): string | null {
  const lower = slug.toLowerCase();
  if (lower.length > MAX_SLUG_LENGTH || !SLUG_PATTERN.test(lower)) return null;
  return lower.slice(-LANDMARK_KEY_LENGTH);
}

const COMMONS_FILE_PATH = 'https://commons.wikimedia.org/wiki/Special:FilePath/';

/**
 * The photo the source names: an `image` tag holding an http(s) URL or a
 * Commons file, else a `wikimedia_commons` tag naming a file (`File:…`;
 * a `Category:…` is a gallery, not a photo). Commons files are served through
 * Special:FilePath, which redirects to the file itself.
 */
export function photoUrl(tags: Readonly<Record<string, string>> | undefined): string | null {
  if (!tags) return null;
  const image = tags.image?.trim();
  if (image) {
    if (/^https?:\/\/[^\s]+$/i.test(image)) return image.replace(/^http:/i, 'https:');
    const file = commonsFile(image);
    if (file) return file;
  }
  return tags.wikimedia_commons ? commonsFile(tags.wikimedia_commons.trim()) : null;
}

function commonsFile(value: string): string | null {
  const match = /^(?:File|Image):(.+\.(?:jpe?g|png|gif|tiff?|webp|svg))$/i.exec(value);
  return match ? `${COMMONS_FILE_PATH}${encodeURIComponent(match[1].replace(/ /g, '_'))}` : null;
}

export function toLandmark(place: Place): Landmark {
  const slug = landmarkSlug(place);
  return { slug, key: slug.slice(-LANDMARK_KEY_LENGTH), place, photo_url: photoUrl(place.tags) };
}
