import type { DatasetRef } from './resolve-address.js';

/**
 * The `address` of GET /v2/reverse (issue 28, item 7; docs/adr/0014): the
 * point named the way reverse geocoders (Pelias, Nominatim, Mapbox) name it,
 * from the reference data this deployment has loaded, each part with the
 * dataset it came from and its distance. Nothing is guessed: a part the data
 * cannot give is null.
 */
export interface NamedPart {
  name: string;
  /** The dataset the part was read from (`boundaries`, `places/osm`, `roads`…): its version is in `address.datasets`. */
  dataset: string;
  /** Metres from the point; 0 for an area that holds it. */
  distance_m: number;
}

export interface PlaceNames {
  /** ISO 3166-1 alpha-2 and name, when the point lies in a loaded boundary (the boundaries cover one country). */
  country: { code: string; name: string } | null;
  region: NamedPart | null;
  district: NamedPart | null;
  /** The nearest populated place (city, town, village, suburb, neighbourhood…) within LOCALITY_RADIUS_M. */
  locality: (NamedPart & { kind: string; lat: number; lng: number }) | null;
  /** The nearest landmark within LANDMARK_RADIUS_M. */
  landmark: (NamedPart & { kind: string; slug: string; lat: number; lng: number }) | null;
  datasets: DatasetRef[];
}

export interface NamedRoad {
  /** The road's name, or its ref (`N1`) where it has no name. */
  name: string;
  ref: string | null;
  dataset: string;
  distance_m: number;
  version: DatasetRef;
}

export interface ReverseAddress extends Omit<PlaceNames, 'datasets'> {
  road: Omit<NamedRoad, 'version'> | null;
  /** One line, the way Ghanaians give directions: "near Makola Market, Accra Central, Accra Metropolitan, Greater Accra". */
  formatted: string | null;
  datasets: DatasetRef[];
}

/** A landmark farther than this does not name the point (a "near" that is a walk away misleads). */
export const LANDMARK_RADIUS_M = 500;
/** The nearest settlement is looked for this far (the places index answers "next to", ADR 0014). */
export const LOCALITY_RADIUS_M = 5_000;
/** A road farther than this is not "on" or "off" it. */
export const ROAD_RADIUS_M = 200;

/** The parts together, and the one-line label: landmark, locality, district, region; repeated names once. */
export function reverseAddress(places: PlaceNames | null, road: NamedRoad | null): ReverseAddress {
  const datasets = [...(places?.datasets ?? []), ...(road ? [road.version] : [])];
  const parts: string[] = [];
  const seen = new Set<string>();
  const push = (text: string | null | undefined) => {
    if (!text || seen.has(text.toLowerCase())) return;
    seen.add(text.toLowerCase());
    parts.push(text);
  };
  if (places?.landmark) push(`near ${places.landmark.name}`);
  else if (road) push(road.ref && road.ref !== road.name ? `${road.name} (${road.ref})` : road.name);
  push(places?.locality?.name);
  push(places?.district?.name);
  push(places?.region?.name);
  const named = parts.length > 0 && (places?.locality || places?.district || places?.region);
  return {
    country: places?.country ?? null,
    region: places?.region ?? null,
    district: places?.district ?? null,
    locality: places?.locality ?? null,
    road: road ? { name: road.name, ref: road.ref, dataset: road.dataset, distance_m: road.distance_m } : null,
    landmark: places?.landmark ?? null,
    formatted: named ? parts.join(', ') : null,
    datasets,
  };
}
