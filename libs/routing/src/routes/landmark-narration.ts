import type { LandmarkHit } from '../../../places/src/index.js';
import { bearing, greatCircleM } from '../../../platform/src/geo/geodesy.js';

/** What narration asks the places context (its `Landmarks.narrationCandidates`, which skips landmarks excluded by reports). */
export interface LandmarkSource {
  narrationCandidates(lat: number, lng: number, radiusM: number, limit?: number): LandmarkHit[];
}

/** How far from a manoeuvre point a landmark may be and still be seen from the junction. */
export const LANDMARK_RADIUS_M = 80;

/**
 * Kinds people steer by in Ghanaian cities (issue #15, "Landmark narration"):
 * markets, fuel stations, places of worship, schools, banks, hospitals and
 * clinics, junction names, well-known shops, stations and stops. Other
 * landmarks (offices, craft workshops…) are used only when nothing better is near.
 */
const NAVIGABLE: Record<string, number> = {
  marketplace: 1, market: 1, fuel: 1, place_of_worship: 1, church: 1, mosque: 1, school: 0.9, college: 0.9, university: 0.9,
  bank: 0.9, hospital: 1, clinic: 0.8, pharmacy: 0.8, police: 0.9, junction: 1, traffic_signals: 0.7, bus_station: 0.9, bus_stop: 0.6,
  station: 0.9, supermarket: 0.9, mall: 1, restaurant: 0.6, hotel: 0.8, post_office: 0.8, stadium: 1, townhall: 0.8, courthouse: 0.8,
  cinema: 0.8, monument: 0.9, memorial: 0.7, fire_station: 0.8, library: 0.7, shop: 0.5, convenience: 0.5,
};

export interface ChosenLandmark {
  name: string;
  slug: string;
  kind: string;
  lat: number;
  lng: number;
  distance_m: number;
  /** Where it stands relative to the turn, for the traveller approaching it. */
  position: 'before' | 'at' | 'after';
  confidence: number;
  alternates: string[];
}

/**
 * landmark_confidence: how well documented the landmark is (interface.md,
 * "Route step"), not how sure the match is. Its name counts 0.3, a kind
 * people navigate by up to 0.2, phone, website and opening hours 0.1 each,
 * a wikidata link 0.15, a brand or operator 0.05, a photo 0.05, an address 0.05.
 */
export function documentation(hit: LandmarkHit): number {
  const place = hit.landmark.place;
  const tags = place.tags ?? {};
  let score = 0.3;
  score += 0.2 * (NAVIGABLE[place.kind] ?? 0.2);
  if (place.phone) score += 0.1;
  if (place.website) score += 0.1;
  if (place.opening_hours) score += 0.1;
  if (tags.wikidata) score += 0.15;
  if (tags.brand || tags.operator) score += 0.05;
  if (hit.landmark.photo_url) score += 0.05;
  if (Object.keys(tags).some((key) => key.startsWith('addr:'))) score += 0.05;
  return Math.round(Math.min(1, score) * 100) / 100;
}

/**
 * The landmark to name at a manoeuvre: the best-ranked candidate (how
 * navigable its kind is, how well documented, how near), and its position
 * against the approach. Others are named as alternates only when they are
 * real ambiguity: a different name ranking within 10 % of the best and as
 * near (within 20 m) — two fuel stations at one junction, say.
 */
export function chooseLandmark(source: LandmarkSource, lat: number, lng: number, approachBearing: number | null): ChosenLandmark | null {
  const hits = source.narrationCandidates(lat, lng, LANDMARK_RADIUS_M, 10);
  if (hits.length === 0) return null;
  const ranked = hits
    .map((hit) => {
      const kindScore = NAVIGABLE[hit.landmark.place.kind] ?? 0.2;
      const confidence = documentation(hit);
      const nearness = 1 - hit.distance_m / LANDMARK_RADIUS_M;
      return { hit, confidence, score: 0.45 * kindScore + 0.2 * confidence + 0.35 * nearness };
    })
    .sort((a, b) => b.score - a.score || a.hit.distance_m - b.hit.distance_m);
  const best = ranked[0];
  if (best.score < 0.25) return null;
  const place = best.hit.landmark.place;
  const alternates = ranked
    .slice(1)
    .filter((other) => other.hit.landmark.place.name !== place.name && other.score >= best.score * 0.9 && Math.abs(other.hit.distance_m - best.hit.distance_m) <= 20)
    .map((other) => other.hit.landmark.place.name);
  let position: ChosenLandmark['position'] = 'at';
  const distance = greatCircleM(lat, lng, place.lat, place.lng);
  if (approachBearing !== null && distance > 25) {
    const towards = bearing(lat, lng, place.lat, place.lng);
    const diff = Math.abs((((towards - approachBearing) % 360) + 540) % 360 - 180);
    // Ahead of the turn along the approach: the traveller turns before reaching it; behind: after passing it.
    position = diff < 90 ? 'before' : 'after';
  }
  return {
    name: place.name,
    slug: best.hit.landmark.slug,
    kind: place.kind,
    lat: place.lat,
    lng: place.lng,
    distance_m: Math.round(best.hit.distance_m),
    position,
    confidence: best.confidence,
    alternates: [...new Set(alternates)].slice(0, 3),
  };
}

/** "after Kaneshie Market", "before the Shell fuel station", "at Opera Square". */
export function landmarkPhrase(landmark: ChosenLandmark): string {
  return `${landmark.position} ${landmark.name}`;
}
