import { greatCircleM, projectOnSegment, sideOf } from '../../../platform/src/geo/geodesy.js';
import type { LandmarkSource } from './landmark-narration.js';
import { documentation } from './landmark-narration.js';

export interface AlongLandmark {
  slug: string;
  name: string;
  kind: string;
  lat: number;
  lng: number;
  /** Metres from the start along the route to the point abreast of the landmark. */
  distance_along_m: number;
  /** Metres from the route line. */
  offset_m: number;
  /** Which side of the road it stands on for the traveller: left, right, or on (within 5 m of the line). */
  side: 'left' | 'right' | 'on';
  landmark_confidence: number;
}

const PROBE_EVERY_M = 60;

/**
 * Landmarks within `radiusM` of a route line ([lng, lat] points), ordered by
 * where the traveller passes them: probed every 60 m along the line, each
 * landmark projected onto its nearest segment for distance along and side.
 */
export function landmarksAlong(source: LandmarkSource, line: Array<[number, number]>, radiusM: number, limit: number): { items: AlongLandmark[]; length_m: number; truncated: boolean } {
  const cumulative = [0];
  for (let i = 1; i < line.length; i++) cumulative.push(cumulative[i - 1] + greatCircleM(line[i - 1][1], line[i - 1][0], line[i][1], line[i][0]));
  const found = new Map<string, AlongLandmark>();
  for (let i = 0; i < line.length; i++) {
    const segment = i + 1 < line.length ? cumulative[i + 1] - cumulative[i] : 0;
    const probes = Math.max(1, Math.ceil(segment / PROBE_EVERY_M));
    for (let p = 0; p < probes; p++) {
      const t = p / probes;
      const [lng, lat] = i + 1 < line.length ? [line[i][0] + t * (line[i + 1][0] - line[i][0]), line[i][1] + t * (line[i + 1][1] - line[i][1])] : line[i];
      for (const hit of source.narrationCandidates(lat, lng, radiusM + PROBE_EVERY_M / 2, 20)) {
        const place = hit.landmark.place;
        if (found.has(hit.landmark.slug)) continue;
        const nearest = nearestOnLine(line, cumulative, place.lat, place.lng);
        if (nearest.offset > radiusM) continue;
        found.set(hit.landmark.slug, {
          slug: hit.landmark.slug,
          name: place.name,
          kind: place.kind,
          lat: place.lat,
          lng: place.lng,
          distance_along_m: Math.round(nearest.along),
          offset_m: Math.round(nearest.offset * 10) / 10,
          side: nearest.offset < 5 ? 'on' : nearest.side > 0 ? 'left' : 'right',
          landmark_confidence: documentation(hit),
        });
      }
    }
  }
  const items = [...found.values()].sort((a, b) => a.distance_along_m - b.distance_along_m || a.offset_m - b.offset_m);
  return { items: items.slice(0, limit), length_m: Math.round(cumulative[cumulative.length - 1]), truncated: items.length > limit };
}

function nearestOnLine(line: Array<[number, number]>, cumulative: number[], lat: number, lng: number): { along: number; offset: number; side: number } {
  let best = { along: 0, offset: Infinity, side: 0 };
  for (let i = 0; i + 1 < line.length; i++) {
    const [aLng, aLat] = line[i];
    const [bLng, bLat] = line[i + 1];
    const hit = projectOnSegment(lat, lng, aLat, aLng, bLat, bLng);
    if (hit.distanceM < best.offset) best = { along: cumulative[i] + hit.t * (cumulative[i + 1] - cumulative[i]), offset: hit.distanceM, side: sideOf(lat, lng, aLat, aLng, bLat, bLng) };
  }
  if (line.length === 1) best = { along: 0, offset: greatCircleM(lat, lng, line[0][1], line[0][0]), side: 0 };
  return best;
}
