import { latLngToCell } from 'h3-js';
import { cellRadiusMeters, hexCodeForPoint, pointForHexCode, type Provenance } from '../../../../addressing/src/index.js';
import { InvalidParamError } from '../../../../platform/src/index.js';
import { ATTRIBUTION, type PlaceSource } from '../../domain/place.js';
import { DatasetNotLoadedError } from '../../domain/errors.js';
import type { Gazetteer } from '../../public/gazetteer.js';
import type { Landmark } from '../domain/landmark.js';
import type { LandmarkHit, LandmarkIndex, Rectangle } from '../domain/landmark-index.js';
import type { NarrationStatus } from '../domain/landmark-reports.js';

/** Deepest reachable result of a landmark list (offset + limit). */
export const MAX_LANDMARK_RESULTS = 200;
export const MAX_AROUND_RADIUS_M = 5_000;
export const MAX_GEOCODE_RADIUS_M = 50_000;
/** A bbox spans at most this many degrees each way (about 110 km): a city, not a country. */
export const MAX_BBOX_DEGREES = 1;
/** For an address-sized cell, the landmarks within this distance of its centre; a larger cell lists the landmarks inside it. */
export const HEXCODE_NEARBY_RADIUS_M = 250;
/** Cells reaching farther than this from their centre (resolution 5 and coarser) are too large to list landmarks for. */
export const MAX_HEXCODE_CELL_RADIUS_M = 5_000;

/**
 * How a landmark's point was established (interface.md, "Provenance object"):
 * a match in a third-party dataset, never verified on the ground by this
 * service; `verified_at` is when that dataset was imported, as for the
 * dataset records of GET /v2/address/resolve. Accuracy
 * is nominal per source: an OSM node is placed on imagery or by GPS (≈10 m);
 * an OSM way's point is the mean of its nodes, inside a building or market
 * but not at its door (≈30 m); GeoNames points of Ghana's dump are often
 * rounded to a few hundred metres.
 */
const PROVENANCE: Record<PlaceSource, { provider: string; node: number; way: number; confidence: number }> = {
  osm: { provider: 'OpenStreetMap', node: 10, way: 30, confidence: 0.8 },
  geonames: { provider: 'GeoNames', node: 500, way: 500, confidence: 0.5 },
};

export function landmarkProvenance(landmark: Landmark, importedAt: string): Provenance {
  const { source, id } = landmark.place;
  const nominal = PROVENANCE[source];
  return {
    source: 'third_party_match',
    provider: nominal.provider,
    accuracy_meters: id.startsWith('osm:way/') ? nominal.way : nominal.node,
    confidence: nominal.confidence,
    verified_at: importedAt,
  };
}

export interface LandmarkPage {
  hits: LandmarkHit[];
  more: boolean;
}

export interface ListOptions {
  limit: number;
  offset: number;
  hasPhoto?: boolean;
}

/**
 * The landmark queries (GET /v2/landmarks/around, /v2/landmarks/geocode,
 * /v2/hexcode/{code}/landmarks) and `narrationCandidates` for routing. They
 * answer from the gazetteer's landmark index and the narration feed's
 * in-memory exclusions.
 */
export class Landmarks {
  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly narration: { status(key: string): NarrationStatus; isExcluded(key: string): boolean },
  ) {}

  index(): LandmarkIndex {
    return this.gazetteer.landmarks();
  }

  around(lat: number, lng: number, radiusM: number, options: ListOptions): LandmarkPage {
    return page(this.index().nearest({ lat, lng, radiusM, count: options.offset + options.limit + 1, accept: photoFilter(options.hasPhoto) }), options);
  }

  inBox(box: Rectangle, options: ListOptions): LandmarkPage {
    const centre = { lat: (box.north + box.south) / 2, lng: (box.east + box.west) / 2 };
    return page(this.index().inside(box, centre, options.offset + options.limit + 1, photoFilter(options.hasPhoto)), options);
  }

  /**
   * A cell wider than HEXCODE_NEARBY_RADIUS_M lists the landmarks inside it;
   * a finer one (an address, resolution 10 and finer) those within that
   * distance of its centre, since an address cell rarely holds one.
   */
  forHexCode(code: string, options: ListOptions) {
    const centre = pointForHexCode(code);
    const cellRadius = cellRadiusMeters(centre.cell);
    if (cellRadius > MAX_HEXCODE_CELL_RADIUS_M) {
      throw new InvalidParamError(`code names a cell of resolution ${centre.resolution}, too large to list landmarks for; use resolution 6 or finer`, 'code');
    }
    const inCell = cellRadius >= HEXCODE_NEARBY_RADIUS_M;
    const radiusM = inCell ? cellRadius : HEXCODE_NEARBY_RADIUS_M;
    const hasPhoto = photoFilter(options.hasPhoto);
    const accept = inCell
      ? (landmark: Landmark) => latLngToCell(landmark.place.lat, landmark.place.lng, centre.resolution) === centre.cell && (!hasPhoto || hasPhoto(landmark))
      : hasPhoto;
    const found = page(this.index().nearest({ lat: centre.lat, lng: centre.lng, radiusM, count: options.offset + options.limit + 1, accept }), options);
    return { centre, scope: inCell ? ('cell' as const) : ('nearby' as const), radius_m: Math.round(radiusM * 10) / 10, ...found };
  }

  bySlugKey(key: string): Landmark | undefined {
    return this.index().byKeyOf(key);
  }

  /**
   * The landmarks route narration may name near a point, nearest first:
   * those not excluded by corroborated wrong-landmark reports or by an
   * operator. With no place set loaded there are none (narration falls back
   * to street names rather than failing the route).
   */
  narrationCandidates(lat: number, lng: number, radiusM: number, limit = 10): LandmarkHit[] {
    let index: LandmarkIndex;
    try {
      index = this.index();
    } catch (error) {
      if (error instanceof DatasetNotLoadedError) return [];
      throw error;
    }
    return index.nearest({ lat, lng, radiusM, count: limit, accept: (landmark) => !this.narration.isExcluded(landmark.key) });
  }

  view(hit: LandmarkHit, options: { provenance?: boolean } = {}) {
    const { landmark } = hit;
    const { place } = landmark;
    return {
      slug: landmark.slug,
      name: place.name,
      kind: place.kind,
      feature: place.feature,
      lat: place.lat,
      lng: place.lng,
      hex_code: hexCodeForPoint(place.lat, place.lng),
      distance_m: Math.round(hit.distance_m * 10) / 10,
      phone: place.phone,
      website: place.website,
      opening_hours: place.opening_hours,
      photo_url: landmark.photo_url,
      region: place.region,
      district: place.district,
      narration_status: this.narration.status(landmark.key),
      source: place.source,
      ...(options.provenance ? { provenance: landmarkProvenance(landmark, this.gazetteer.datasetOf(place.id)?.imported_at ?? new Date().toISOString()) } : {}),
    };
  }

  /** Attribution the sources of these landmarks require wherever they are shown. */
  static attribution(hits: LandmarkHit[]): string[] {
    return [...new Set(hits.map((hit) => ATTRIBUTION[hit.landmark.place.source]))].sort();
  }

}

/** interface.md: `has_photo=true` returns only landmarks with a photo; false (or absent) does not filter. */
function photoFilter(hasPhoto: boolean | undefined): ((landmark: Landmark) => boolean) | undefined {
  return hasPhoto ? (landmark) => landmark.photo_url !== null : undefined;
}

function page(hits: LandmarkHit[], options: ListOptions): LandmarkPage {
  return { hits: hits.slice(options.offset, options.offset + options.limit), more: hits.length > options.offset + options.limit };
}

/** An opaque page token: the offset of the next result. */
export function encodeLandmarkCursor(offset: number): string {
  return Buffer.from(`l:${offset}`).toString('base64url');
}

export function decodeLandmarkCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^l:(\d{1,4})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const offset = match ? Number(match[1]) : NaN;
  if (!(offset > 0 && offset < MAX_LANDMARK_RESULTS)) throw new InvalidParamError('cursor is not a next_cursor of this endpoint', 'cursor');
  return offset;
}
