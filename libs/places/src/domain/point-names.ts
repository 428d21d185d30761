import type { AdminAreas } from './admin-areas.js';
import type { Place } from './place.js';
import type { PlaceGrid } from './place-grid.js';
import type { LandmarkIndex } from '../landmarks/domain/landmark-index.js';

/** Settlements: what "locality" names (GeoNames class P, OSM place=*); not historical or abandoned ones. */
const POPULATED_KINDS: ReadonlySet<string> = new Set(['city', 'town', 'village', 'hamlet', 'suburb', 'neighbourhood', 'quarter', 'locality', 'isolated_dwelling']);

export function isPopulatedPlace(place: Place): boolean {
  if (!POPULATED_KINDS.has(place.kind)) return false;
  return place.source === 'geonames' ? place.feature.startsWith('P.') : place.feature.startsWith('place=');
}

export interface PointNameSources {
  admin: AdminAreas | null;
  /** The boundaries dataset, when loaded. */
  boundaries: string | null;
  /** Populated places only. */
  settlements: PlaceGrid;
  landmarks: LandmarkIndex;
  datasetOf: (placeId: string) => string;
  /** The one country the boundaries cover (ISO code and name). */
  country: { code: string; name: string };
}

export interface PointNames {
  country: { code: string; name: string } | null;
  region: { name: string; dataset: string; distance_m: number } | null;
  district: { name: string; dataset: string; distance_m: number } | null;
  locality: { name: string; kind: string; lat: number; lng: number; dataset: string; distance_m: number } | null;
  landmark: { name: string; kind: string; slug: string; lat: number; lng: number; dataset: string; distance_m: number } | null;
}

/**
 * Region and district by point-in-polygon over the boundaries, the nearest
 * settlement within `localityRadiusM` and the nearest landmark within
 * `landmarkRadiusM` (issue 28, item 7). The country is named only inside a
 * boundary: outside them the data says nothing about where the point is.
 */
export function pointNames(sources: PointNameSources, lat: number, lng: number, radii: { localityM: number; landmarkM: number }): PointNames {
  const admin = sources.admin?.locate(lat, lng) ?? { region: null, district: null };
  const boundaries = sources.boundaries ?? 'boundaries';
  const [settlement] = sources.settlements.near(lat, lng, radii.localityM, 1);
  const [landmark] = sources.landmarks.nearest({ lat, lng, radiusM: radii.landmarkM, count: 1 });
  return {
    country: admin.region || admin.district ? sources.country : null,
    region: admin.region ? { name: admin.region, dataset: boundaries, distance_m: 0 } : null,
    district: admin.district ? { name: admin.district, dataset: boundaries, distance_m: 0 } : null,
    locality: settlement
      ? { name: settlement.place.name, kind: settlement.place.kind, lat: settlement.place.lat, lng: settlement.place.lng, dataset: sources.datasetOf(settlement.place.id), distance_m: Math.round(settlement.distance_m) }
      : null,
    landmark: landmark
      ? {
          name: landmark.landmark.place.name,
          kind: landmark.landmark.place.kind,
          slug: landmark.landmark.slug,
          lat: landmark.landmark.place.lat,
          lng: landmark.landmark.place.lng,
          dataset: sources.datasetOf(landmark.landmark.place.id),
          distance_m: Math.round(landmark.distance_m),
        }
      : null,
  };
}
