/**
 * A place of the reference datasets: what the importers write (one JSON line
 * each) and what search answers from. Reference data is not event-sourced
 * (docs/adr/0011): a dataset is replaced as a whole by a new import.
 */
export type PlaceSource = 'geonames' | 'osm';

export interface Place {
  /** `geonames:<geonameid>`, `osm:node/<id>` or `osm:way/<id>`: stable across imports of the same source. */
  id: string;
  source: PlaceSource;
  name: string;
  /** Other names it is known by (spellings, languages, former names); never the name itself. */
  alt_names: string[];
  /** What it is, in one word: `city`, `village`, `district`, `hospital`, `bus_stop`, `stream`… */
  kind: string;
  /** The source's own classification: `P.PPLA` (GeoNames class.code) or `amenity=hospital` (OSM tag). */
  feature: string;
  lat: number;
  lng: number;
  population: number | null;
  /** 0..1, how prominent the place is regardless of the query (population, class, admin level). */
  importance: number;
  /** From the boundaries dataset by point-in-polygon at import time; null outside every boundary or without one. */
  region: string | null;
  district: string | null;
  /** Landmark-ready details where the source tags them (OSM). */
  phone: string | null;
  website: string | null;
  opening_hours: string | null;
  /** Other source tags a landmark may need later (wikidata, image, brand, operator, addr:*), OSM only. */
  tags?: Record<string, string>;
}

/** Attribution each source requires wherever its data is shown or served. */
export const ATTRIBUTION: Record<PlaceSource, string> = {
  osm: '© OpenStreetMap contributors',
  geonames: 'GeoNames (geonames.org), CC BY 4.0',
};

/** An imported name is cut to this length and a place keeps at most this many alternate names. */
export const MAX_NAME_LENGTH = 200;
export const MAX_ALT_NAMES = 30;

/** The alternate names worth keeping: trimmed, bounded, distinct from the name and from each other (after normalisation). */
export function cleanAltNames(name: string, candidates: Iterable<string>, normalise: (text: string) => string): string[] {
  const seen = new Set([normalise(name)]);
  const kept: string[] = [];
  for (const raw of candidates) {
    const candidate = raw.trim().slice(0, MAX_NAME_LENGTH);
    const key = normalise(candidate);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(candidate);
    if (kept.length === MAX_ALT_NAMES) break;
  }
  return kept;
}
