import type { Place } from '../../domain/place.js';
import { DatasetNotLoadedError } from '../../domain/errors.js';
import type { Gazetteer } from '../../public/gazetteer.js';
import { LandmarkIndex } from '../domain/landmark-index.js';
import { landmarkKey } from '../domain/landmark.js';
import { Landmarks } from './landmarks.js';

const bank = (id: number, lat: number): Place => ({
  id: `osm:node/${id}`,
  source: 'osm',
  name: `Bank ${id}`,
  alt_names: [],
  kind: 'bank',
  feature: 'amenity=bank',
  lat,
  lng: -0.2,
  population: null,
  importance: 0.1,
  region: null,
  district: null,
  phone: null,
  website: null,
  opening_hours: null,
});

describe('narrationCandidates', () => {
  const index = new LandmarkIndex([bank(1, 5.55), bank(2, 5.5505), bank(3, 5.551)]);
  const excluded = new Set([landmarkKey('osm:node/1')]);
  const narration = { isExcluded: (key: string) => excluded.has(key), status: (key: string) => (excluded.has(key) ? ('excluded' as const) : ('candidate' as const)) };

  it('skips landmarks excluded from narration, nearest first', () => {
    const landmarks = new Landmarks({ landmarks: () => index } as unknown as Gazetteer, narration);
    expect(landmarks.narrationCandidates(5.55, -0.2, 500).map((hit) => hit.landmark.place.id)).toEqual(['osm:node/2', 'osm:node/3']);
    expect(landmarks.narrationCandidates(5.55, -0.2, 500, 1).map((hit) => hit.landmark.place.id)).toEqual(['osm:node/2']);
    // The landmark answers still list it, saying why narration skips it.
    const [first] = landmarks.around(5.55, -0.2, 500, { limit: 1, offset: 0 }).hits;
    expect(landmarks.view(first).narration_status).toBe('excluded');
  });

  it('answers none rather than failing a route before any place set is imported', () => {
    const landmarks = new Landmarks(
      {
        landmarks: () => {
          throw new DatasetNotLoadedError();
        },
      } as unknown as Gazetteer,
      narration,
    );
    expect(landmarks.narrationCandidates(5.55, -0.2, 500)).toEqual([]);
  });
});
