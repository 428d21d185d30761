import { cellToBoundary, cellToLatLng } from 'h3-js';
import { greatCircleM } from '../../../platform/src/geo/geodesy.js';

/** interface.md, "Provenance object": how a returned point was established. */
export const PROVENANCE_SOURCES = ['device_gps', 'geocoded_text', 'third_party_match', 'user_confirmed', 'agent_verified'] as const;
export type ProvenanceSource = (typeof PROVENANCE_SOURCES)[number];

export interface Provenance {
  source: ProvenanceSource;
  provider: string;
  accuracy_meters: number;
  confidence: number;
  /**
   * When the point was last established from its source (ADR 9, "Provenance"):
   * a code's cell centre, when the code scheme fixed its meaning
   * (`HEXCODE_SCHEME_SINCE`); a dataset record, when that dataset was
   * imported (landmarks too); a caller's coordinate, when the caller sent it.
   * Never null.
   */
  verified_at: string;
  /** For `user_confirmed` and `agent_verified` only: the account or agent id that confirmed the point (docs/adr/0030). */
  confirmed_by?: string;
}

/** Sources a person vouches for: accepted only with who confirmed (docs/adr/0030). */
export const CONFIRMED_SOURCES: readonly ProvenanceSource[] = ['user_confirmed', 'agent_verified'];

/** The codec that turned a code into a point (ADR 0009); names the scheme version so a change would show. */
export const HEXCODE_PROVIDER = 'hexcode-v1 (H3 v4 cell centre)';

/**
 * When the hexcode-v1 scheme fixed what every code means (ADR 9, accepted
 * 2026-11-22): a code's cell, and so its centre, was established then and is
 * the same at every decode. What `verified_at` says for a decoded code.
 */
export const HEXCODE_SCHEME_SINCE = '2026-11-22T00:00:00.000Z';

/**
 * Confidence in a point decoded from a hex code (docs/adr/0030, "Provenance
 * rules"): decoding is exact about the cell, and the accuracy covers all of
 * it, but the code is text someone holds; nothing observed agrees or
 * disagrees that the place it addresses is there. One unconfirmed statement,
 * the same rule as a caller's geocoded point (`callerPointConfidence`).
 */
export const DECODED_CODE_CONFIDENCE = 0.5;

/**
 * The provenance of a cell centre computed from a hex code (ADR 0009,
 * "Provenance"; docs/adr/0030): `geocoded_text`, because the point was
 * established from the text of an address code and from nothing observed; the
 * accuracy is the distance from the centre to the cell's farthest corner, so
 * every point the code can stand for lies within it; confidence
 * `DECODED_CODE_CONFIDENCE`; established when the scheme fixed the code's
 * meaning (`HEXCODE_SCHEME_SINCE`), not when this answer decoded it.
 */
export function cellCentreProvenance(cell: string, centre?: [lat: number, lng: number]): Provenance {
  return codeSchemeProvenance(cellRadiusMeters(cell, centre));
}

/** The provenance of points coded by hexcode-v1, accurate to `accuracyMeters` (a cell's size, or the widest of a batch's). */
export function codeSchemeProvenance(accuracyMeters: number): Provenance {
  return { source: 'geocoded_text', provider: HEXCODE_PROVIDER, accuracy_meters: accuracyMeters, confidence: DECODED_CODE_CONFIDENCE, verified_at: HEXCODE_SCHEME_SINCE };
}

/** The provider named when the caller supplied the coordinate (GET /v2/reverse). */
export const CALLER_PROVIDER = 'caller';

/**
 * Confidence in one point a caller states, by how they say it was established
 * (docs/adr/0030): a single statement, with nothing here to agree or disagree
 * with it. A device fix with its accuracy is as sure as its 68% circle, half
 * that without one; an agent on the ground, named, 0.8; the customer's own
 * confirmation, named, 0.6; a caller's geocode or dataset match 0.5.
 */
export function callerPointConfidence(source: ProvenanceSource, accuracyGiven: boolean): number {
  switch (source) {
    case 'device_gps':
      return accuracyGiven ? 0.68 : 0.34;
    case 'agent_verified':
      return 0.8;
    case 'user_confirmed':
      return 0.6;
    default:
      return 0.5;
  }
}

/**
 * The provenance of a coordinate the caller sent (GET /v2/reverse): how the
 * caller says they got it (default `device_gps`, what most callers send),
 * accurate to the caller's `accuracy_m` when given, else to the cell the point
 * was coded to; confidence by `callerPointConfidence`; established when the
 * request arrived (the caller gave no earlier time). `user_confirmed` and
 * `agent_verified` carry who confirmed (`confirmed_by`); without it the
 * caller is refused before this is built.
 */
export function callerPointProvenance(
  source: ProvenanceSource,
  accuracyM: number | undefined,
  cell: string,
  receivedAt: Date,
  centre?: [lat: number, lng: number],
  confirmedBy?: string,
): Provenance {
  return {
    source,
    provider: CALLER_PROVIDER,
    accuracy_meters: accuracyM ?? cellRadiusMeters(cell, centre),
    confidence: callerPointConfidence(source, accuracyM !== undefined),
    verified_at: receivedAt.toISOString(),
    ...(CONFIRMED_SOURCES.includes(source) && confirmedBy !== undefined ? { confirmed_by: confirmedBy } : {}),
  };
}

/** Centre-to-farthest-corner distance of a cell, in metres, rounded up to the decimetre; `centre` when the caller has it already. */
export function cellRadiusMeters(cell: string, centre: [lat: number, lng: number] = cellToLatLng(cell) as [number, number]): number {
  const [lat, lng] = centre;
  let farthest = 0;
  for (const [cornerLat, cornerLng] of cellToBoundary(cell)) farthest = Math.max(farthest, greatCircleM(lat, lng, cornerLat, cornerLng));
  return Math.ceil(farthest * 10) / 10;
}
