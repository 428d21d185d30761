import { createHash } from 'node:crypto';
import type { Place } from '../../domain/place.js';
import { placeFromOsm } from '../../domain/osm-tags.js';
import { isLandmark, keyOfSlug, landmarkKey, landmarkSlug, photoUrl, SLUG_PATTERN, toLandmark } from './landmark.js';

const osm = (tags: Record<string, string>, id = 1, type: 'node' | 'way' = 'node'): Place => {
  const place = placeFromOsm(type, id, tags, 5.55, -0.2);
  if (!place) throw new Error('not a place');
  return place;
};

describe('landmark identity', () => {
  it('gives the same slug to the same source object on every import, and a different one to another object of the same name', () => {
    const first = landmarkSlug(osm({ amenity: 'marketplace', name: 'Makola Market' }, 100, 'way'));
    const again = landmarkSlug(osm({ amenity: 'marketplace', name: 'Makola Market', phone: '+233 1' }, 100, 'way'));
    const other = landmarkSlug(osm({ amenity: 'marketplace', name: 'Makola Market' }, 100, 'node'));
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(first).toMatch(/^makola-market-[0-9a-z]{10}$/);
  });

  it('pins the hash of a source id so that slugs never change between versions of the code', () => {
    // A change here breaks every slug clients stored and every report stream: do not update it, keep the scheme.
    expect(landmarkSlug({ id: 'osm:node/1', name: 'Korle Bu Teaching Hospital' })).toBe('korle-bu-teaching-hospital-56avfa4c8v');
    // Crockford base-32 of the first 50 bits of SHA-256("osm:node/1"), computed independently here.
    const digest = BigInt(`0x${createHash('sha256').update('osm:node/1').digest('hex').slice(0, 13)}`) >> 2n;
    expect(landmarkKey('osm:node/1')).toBe(digest.toString(32).padStart(10, '0').split('').map((c) => '0123456789abcdefghjkmnpqrstvwxyz'[parseInt(c, 32)]).join(''));
  });

  it('keeps only ASCII words of the name (accents folded, at most six words) and resolves a slug by its key alone', () => {
    const slug = landmarkSlug({ id: 'osm:node/5', name: 'Papaye & Co é — Osu Oxford Street branch number two' });
    expect(slug).toMatch(/^papaye-co-e-osu-oxford-street-[0-9a-z]{10}$/);
    expect(SLUG_PATTERN.test(slug)).toBe(true);
    const key = landmarkKey('osm:node/5');
    expect(keyOfSlug(slug)).toBe(key);
    expect(keyOfSlug(`renamed-place-${key}`)).toBe(key);
    expect(keyOfSlug(key.toUpperCase())).toBe(key);
    expect(landmarkSlug({ id: 'osm:node/6', name: 'مسجد' })).toBe(landmarkKey('osm:node/6'));
  });

  it.each(['', 'x', 'makola-market', 'makola-market-ilouilouil', '../etc/passwd', `a-${'b'.repeat(80)}-0123456789`])('refuses %p as a slug', (text) => {
    expect(keyOfSlug(text)).toBeNull();
  });
});

describe('which places are landmarks', () => {
  it.each([
    [{ amenity: 'fuel', name: 'Total Osu' }, true],
    [{ amenity: 'place_of_worship', name: 'Holy Spirit Cathedral' }, true],
    [{ shop: 'supermarket', name: 'Melcom' }, true],
    [{ amenity: 'bank', name: 'GCB Bank' }, true],
    [{ highway: 'bus_stop', name: 'Kaneshie First Light' }, true],
    [{ building: 'yes', name: 'World Trade Centre' }, true],
    [{ place: 'suburb', name: 'Osu' }, false],
    [{ amenity: 'bench', name: 'Memorial bench' }, false],
    [{ amenity: 'toilets', name: 'Public toilet' }, false],
    [{ natural: 'water', name: 'Korle Lagoon' }, false],
    [{ building: 'house', name: 'Family house' }, false],
  ])('OSM %p → %p', (tags, expected) => {
    expect(isLandmark(osm(tags))).toBe(expected);
  });

  it('takes GeoNames spots and buildings but not its farms and camps, nor settlements', () => {
    const geonames = (feature: string): Place => ({ ...osm({ amenity: 'school', name: 'X' }), id: 'geonames:1', source: 'geonames', feature });
    expect(isLandmark(geonames('S.HTL'))).toBe(true);
    expect(isLandmark(geonames('S.STDM'))).toBe(true);
    expect(isLandmark(geonames('L.PRK'))).toBe(true);
    expect(isLandmark(geonames('S.FRM'))).toBe(false);
    expect(isLandmark(geonames('S.CMP'))).toBe(false);
    expect(isLandmark(geonames('P.PPL'))).toBe(false);
  });
});

describe('photo_url', () => {
  it('uses an image URL or a Commons file the source names, and nothing otherwise', () => {
    expect(photoUrl({ image: 'http://example.org/a.jpg' })).toBe('https://example.org/a.jpg');
    expect(photoUrl({ image: 'File:Makola Market.jpg' })).toBe('https://commons.wikimedia.org/wiki/Special:FilePath/Makola_Market.jpg');
    expect(photoUrl({ wikimedia_commons: 'File:Independence Arch, Accra.JPG' })).toBe('https://commons.wikimedia.org/wiki/Special:FilePath/Independence_Arch%2C_Accra.JPG');
    expect(photoUrl({ wikimedia_commons: 'Category:Makola Market' })).toBeNull();
    expect(photoUrl({ image: 'a nice photo' })).toBeNull();
    expect(photoUrl({ wikidata: 'Q1' })).toBeNull();
    expect(photoUrl(undefined)).toBeNull();
  });

  it('is carried from the OSM import to the landmark', () => {
    expect(toLandmark(osm({ amenity: 'marketplace', name: 'Makola', wikimedia_commons: 'File:Makola.jpg' })).photo_url).toContain('Special:FilePath/Makola.jpg');
  });
});
