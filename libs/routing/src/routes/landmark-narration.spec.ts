import { describe, expect, it } from '@jest/globals';
import type { LandmarkHit, Place } from '../../../places/src/index.js';
import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { chooseLandmark, documentation, type LandmarkSource } from './landmark-narration.js';

const TURN = { lat: 5.6, lng: -0.2 };

function hit(name: string, kind: string, lat: number, lng: number, extra: Partial<Place> = {}): LandmarkHit {
  const place: Place = {
    id: `osm:node/${name.length}${Math.round(lat * 1e6)}`, source: 'osm', name, alt_names: [], kind, feature: `amenity=${kind}`, lat, lng, population: null, importance: 0.1,
    region: null, district: null, phone: null, website: null, opening_hours: null, ...extra,
  };
  return { landmark: { slug: name.toLowerCase().replace(/\W+/g, '-'), key: name, place, photo_url: null }, distance_m: greatCircleM(TURN.lat, TURN.lng, lat, lng) };
}

/** What the places context answers: the candidates within the radius, nearest first (excluded ones are never among them). */
function source(hits: LandmarkHit[]): LandmarkSource {
  return { narrationCandidates: (_lat, _lng, radius) => hits.filter((h) => h.distance_m <= radius).sort((a, b) => a.distance_m - b.distance_m) };
}

describe('landmark narration', () => {
  it('scores how well a landmark is documented, not how near it is', () => {
    const bare = hit('Kiosk', 'shop', 5.6001, -0.2);
    const documented = hit('Kaneshie Market', 'marketplace', 5.6004, -0.2, { phone: '+233 30 000 0000', website: 'https://example.org', opening_hours: 'Mo-Sa 06:00-18:00', tags: { wikidata: 'Q1', brand: 'x' } });
    expect(documentation(bare)).toBeLessThan(documentation(documented));
    expect(documentation(documented)).toBeLessThanOrEqual(1);
    expect(documentation(bare)).toBeGreaterThan(0);
  });

  it('prefers a kind people steer by, says where it stands against the approach, and names no alternates without real ambiguity', () => {
    // Approaching northwards (bearing 0): a market 40 m behind the turn has been passed, so "after".
    const chosen = chooseLandmark(source([hit('Copy Shop', 'shop', 5.6001, -0.2002), hit('Kaneshie Market', 'marketplace', 5.59964, -0.2)]), TURN.lat, TURN.lng, 0);
    expect(chosen).toMatchObject({ name: 'Kaneshie Market', position: 'after', alternates: [] });
    const ahead = chooseLandmark(source([hit('Kaneshie Market', 'marketplace', 5.60036, -0.2)]), TURN.lat, TURN.lng, 0);
    expect(ahead?.position).toBe('before');
  });

  it('lists the other name when two landmarks of one kind stand as near: that is ambiguity', () => {
    const chosen = chooseLandmark(source([hit('Shell', 'fuel', 5.6002, -0.2), hit('Total', 'fuel', 5.6, -0.2002)]), TURN.lat, TURN.lng, 0);
    expect(chosen?.alternates).toHaveLength(1);
    expect([chosen?.name, ...chosen!.alternates].sort()).toEqual(['Shell', 'Total']);
  });

  it('names nothing when nothing is near enough (the step keeps its street instruction)', () => {
    expect(chooseLandmark(source([hit('Far Church', 'place_of_worship', 5.602, -0.2)]), TURN.lat, TURN.lng, 0)).toBeNull();
    expect(chooseLandmark(source([]), TURN.lat, TURN.lng, 0)).toBeNull();
  });
});
