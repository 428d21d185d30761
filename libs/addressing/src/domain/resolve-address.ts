import { decodeGhanaPost, type GhanaPostDecoding } from './ghanapost-gps.js';
import { cellToLatLng, gridDisk, latLngToCell } from 'h3-js';
import { DomainError, InvalidParamError } from '../../../platform/src/errors.js';
import { findAddressCodes } from './address-text.js';
import { DEFAULT_ADDRESS_RESOLUTION, displayHexCode, hexCodeForPoint, parseHexCode, type ParsedHexCode } from './hexcode.js';
import { cellCentreProvenance, cellRadiusMeters, type Provenance } from './provenance.js';

/**
 * GET /v2/address/resolve (interface.md: "result with provenance, label,
 * last_seen_at, meta"; Resources, "Address resolve": structure-precision points
 * include label and last_seen_at). docs/adr/0014-address-resolve.md has the
 * why of each rule below.
 *
 * An address is a hex code (any shape POST /v2/address/parse recognises, alone
 * or inside other text) or free text naming a place of the reference data. A
 * code resolves to its cell centre, and the named structures of the reference
 * data lying in or next to its cell come with it; text resolves to the best
 * place the search finds. Pure: the caller passes the reference places in.
 */
export const MAX_ADDRESS_LENGTH = 200;
/** Finer codes name a building plot; at coarser ones a cell holds too many structures for one to name it. */
export const MIN_STRUCTURE_RESOLUTION = 11;
/** Structure points returned at most, nearest to the code's centre first. */
export const MAX_STRUCTURE_POINTS = 10;
/** Text hits asked of the search: the best one, and the rest to judge ambiguity. */
export const TEXT_CANDIDATES = 10;
export const MAX_ALTERNATIVES = 4;
/** A hit scoring within this of the best one makes the answer ambiguous. */
const AMBIGUITY_MARGIN = 0.1;
const AMBIGUOUS_FACTOR = 0.6;

// ---------------------------------------------------------------- the reference data, as the resolver sees it

export interface ReferencePlace {
  id: string;
  name: string;
  kind: string;
  /** The source's classification: `amenity=hospital` (OSM) or `S.HSP` (GeoNames class.code). */
  feature: string;
  source: string;
  lat: number;
  lng: number;
  region?: string | null;
  district?: string | null;
  /** Where the source gives it: sizes a settlement's extent. */
  population?: number | null;
}

export interface DatasetRef {
  dataset: string;
  version: string;
  imported_at: string;
  /** What its source requires wherever its data is shown. */
  attribution?: readonly string[];
}

export interface NearbyReference {
  place: ReferencePlace;
  distance_m: number;
  dataset: DatasetRef | null;
}

export interface TextCandidate {
  place: ReferencePlace;
  score: number;
  match: string;
  matched_name: string | null;
  dataset: DatasetRef | null;
}

// ---------------------------------------------------------------- errors
// (GhanaPostGPS decoding: ghanapost-gps.ts)

/** A GhanaPostGPS digital address: recognised, but its grid is proprietary and unpublished, so no point can be computed. */
export class AddressNotConvertibleError extends DomainError {
  readonly code = 'ADDRESS_NOT_CONVERTIBLE';
  readonly status = 422;
  override readonly field = 'address';
  override readonly details: Readonly<GhanaPostDecoding>;
  constructor(code: string) {
    const decoded = decodeGhanaPost(code);
    const region = decoded.region ? ` in the ${decoded.region.name} region (its prefix ${decoded.prefix}; details.region)` : '';
    super(
      `${code} is a GhanaPostGPS digital address${region}: its precise point is on GhanaPost's own, unpublished grid, so only GhanaPost's service can give it and this service cannot; send the hex code of the place instead`,
    );
    // What is public about it (issue 29, item 6): the region from the prefix; nothing guessed.
    this.details = decoded;
  }
}

/** Text that no place of the reference data matches, not even nearly. */
export class AddressNotFoundError extends DomainError {
  readonly code = 'ADDRESS_NOT_FOUND';
  readonly status = 404;
  override readonly field = 'address';
  override readonly details: Readonly<{ datasets: readonly string[]; outside_coverage?: { name: string; country: string; country_name: string; note: string } }>;
  constructor(datasets: readonly DatasetRef[] | readonly string[], outside?: { name: string; country: string; country_name: string; note: string }) {
    super(
      outside
        ? `${outside.name} is in ${outside.country_name}, outside the data's coverage (Ghana); no place of the reference data matches it`
        : 'no place of the reference data matches the address, and it holds no hex code',
    );
    const names = datasets.map((d) => (typeof d === 'string' ? d : `${d.dataset}@${d.version}`));
    this.details = outside ? { datasets: names, outside_coverage: outside } : { datasets: names };
  }
}

// ---------------------------------------------------------------- what the input is

export type AddressInput =
  | { kind: 'hex_code'; parsed: ParsedHexCode; matched_text: string; embedded: boolean; other_codes: string[] }
  /** Letters only, standing alone: a valid code as well as a word ("MADINA" passes the check); text first, the code if no place matches. */
  | { kind: 'text_or_code'; text: string; parsed: ParsedHexCode }
  | { kind: 'text'; text: string };

/**
 * What the address is. Throws AddressNotConvertibleError for a GhanaPostGPS
 * address (with no hex code beside it), InvalidCodeError (field `address`,
 * details `{reason, suggestions}`) for code-shaped text that fails its check,
 * InvalidParamError for input with nothing to search for.
 */
export function classifyAddress(address: string): AddressInput {
  const text = address.trim();
  if (text === '') throw new InvalidParamError('address must not be empty', 'address');
  if (text.length > MAX_ADDRESS_LENGTH) throw new InvalidParamError(`address must be at most ${MAX_ADDRESS_LENGTH} characters`, 'address');
  const found = findAddressCodes(text);
  const codes = [found.match, ...found.others].filter((match) => match !== null);
  const hex = codes.filter((match) => match.kind === 'hex_code');
  if (hex.length > 0) {
    const [first] = hex;
    const parsed = { code: first.code, cell: first.cell!, resolution: first.resolution! };
    if (!first.recognised.embedded && /^[A-Za-z]+$/.test(text)) return { kind: 'text_or_code', text, parsed };
    return { kind: 'hex_code', parsed, matched_text: first.recognised.matched_text, embedded: first.recognised.embedded, other_codes: hex.slice(1).map((match) => match.code) };
  }
  const ghanaPost = codes.find((match) => match.kind === 'ghanapost_gps');
  if (ghanaPost) throw new AddressNotConvertibleError(ghanaPost.code);
  // Code-shaped text that fails its check is a mistyped code, not a place name: say so, with the likely codes.
  if (found.suggested_for !== null) parseHexCode(found.suggested_for, 'address');
  if (!/[\p{L}\p{N}]/u.test(text)) throw new InvalidParamError('address must contain a letter or a digit', 'address');
  return { kind: 'text', text };
}

// ---------------------------------------------------------------- the answer

export type Precision = 'structure' | 'cell' | 'place';

export interface ResolvedPoint {
  label: string;
  kind: string;
  lat: number;
  lng: number;
  /** The address-resolution hex code of the point. */
  code: string;
  display: string;
  /** Metres from the resolved point (for a code: its cell centre). */
  distance_m: number;
  /** True when the point lies in the code's own cell, false when in a neighbouring one; null for a text match. */
  in_cell: boolean | null;
  place_id: string;
  region: string | null;
  district: string | null;
  last_seen_at: string | null;
  provenance: Provenance;
}

export interface Alternative {
  label: string;
  kind: string;
  lat: number;
  lng: number;
  code: string;
  region: string | null;
  district: string | null;
  score: number;
  match: string;
  place_id: string;
}

export interface Resolution {
  lat: number;
  lng: number;
  code: string;
  display: string;
  resolution: number;
  cell: string;
  precision: Precision;
  label: string | null;
  last_seen_at: string | null;
  provenance: Provenance;
  points: ResolvedPoint[];
  meta: {
    input_kind: 'hex_code' | 'text';
    matched_by: 'code' | 'code_in_text' | 'place_search';
    matched_text: string;
    other_codes: string[];
    text_match: string | null;
    did_you_mean: string | null;
    /** Reference places examined: within the structure radius of a code, or the search hits for text. */
    candidates_considered: number;
    structure_search: { radius_m: number; min_resolution: number } | null;
    /** Why structures were not looked for; null when they were. */
    structure_search_skipped: 'resolution_too_coarse' | 'dataset_not_loaded' | null;
    ambiguous: boolean;
    alternatives: Alternative[];
    datasets: DatasetRef[];
    /** What `last_seen_at` means: when this service last saw the record in its source (the import of the dataset version holding it). */
    last_seen_basis: 'dataset_import';
    attribution: string[];
  };
}

/**
 * How far from the cell centre the structures of the code's cell and its six
 * neighbours can lie: a neighbour's centre is √3 edges away and its farthest
 * corner one more; 3.5 cell radii covers that with room for H3's distortion.
 * The exact membership test is by cell, after.
 */
export function structureRadius(cell: string): number {
  return Math.ceil(cellRadiusMeters(cell) * 3.5);
}

export function structuresWanted(parsed: ParsedHexCode): boolean {
  return parsed.resolution >= MIN_STRUCTURE_RESOLUTION;
}

/**
 * A code's answer: its cell centre (that is what the code names), with the
 * structures in or next to the cell as `points`. `nearby` is null when no
 * reference data was consulted (too coarse a code, or none loaded).
 */
export function resolveCode(
  input: Extract<AddressInput, { kind: 'hex_code' | 'text_or_code' }>,
  nearby: readonly NearbyReference[] | null,
  datasets: readonly DatasetRef[],
  now: Date,
): Resolution {
  const { parsed } = input;
  const [lat, lng] = cellToLatLng(parsed.cell);
  const disk = new Set(gridDisk(parsed.cell, 1));
  const found: Array<{ point: ResolvedPoint; dataset: DatasetRef | null }> = [];
  for (const candidate of nearby ?? []) {
    if (!isStructure(candidate.place)) continue;
    const cell = latLngToCell(candidate.place.lat, candidate.place.lng, parsed.resolution);
    if (!disk.has(cell)) continue;
    found.push({ point: structurePoint(candidate, candidate.distance_m, cell === parsed.cell, now), dataset: candidate.dataset });
  }
  // In the cell before next to it; nearest to the centre first.
  found.sort((a, b) => Number(b.point.in_cell) - Number(a.point.in_cell) || a.point.distance_m - b.point.distance_m || (a.point.place_id < b.point.place_id ? -1 : 1));
  found.splice(MAX_STRUCTURE_POINTS);
  const points = found.map((entry) => entry.point);
  const named = points[0] ?? null;
  const skipped = !structuresWanted(parsed) ? 'resolution_too_coarse' : nearby === null ? 'dataset_not_loaded' : null;
  return {
    lat,
    lng,
    code: parsed.code,
    display: displayHexCode(parsed.code),
    resolution: parsed.resolution,
    cell: parsed.cell,
    precision: named ? 'structure' : 'cell',
    label: named?.label ?? null,
    last_seen_at: named?.last_seen_at ?? null,
    provenance: cellCentreProvenance(parsed.cell),
    points,
    meta: {
      input_kind: 'hex_code',
      matched_by: input.kind === 'hex_code' && input.embedded ? 'code_in_text' : 'code',
      matched_text: input.kind === 'hex_code' ? input.matched_text : input.text,
      other_codes: input.kind === 'hex_code' ? input.other_codes : [],
      text_match: null,
      did_you_mean: null,
      candidates_considered: nearby?.length ?? 0,
      structure_search: skipped === null ? { radius_m: structureRadius(parsed.cell), min_resolution: MIN_STRUCTURE_RESOLUTION } : null,
      structure_search_skipped: skipped,
      ambiguous: false,
      alternatives: [],
      datasets: skipped === null ? datasets.map(datasetView) : [],
      last_seen_basis: 'dataset_import',
      attribution: attributionOf(found.map((entry) => entry.dataset)),
    },
  };
}

/** A text's answer: the best place the search found; near-equal others are `alternatives`. Throws AddressNotFoundError. */
export function resolveText(
  text: string,
  hits: readonly TextCandidate[],
  didYouMean: string | null,
  datasets: readonly DatasetRef[],
  now: Date,
): Resolution {
  const [best, ...rest] = hits;
  if (!best) throw new AddressNotFoundError(datasets);
  const { place } = best;
  const code = hexCodeForPoint(place.lat, place.lng, DEFAULT_ADDRESS_RESOLUTION);
  const parsed = parseHexCode(code);
  const close = rest.filter((hit) => hit.score >= best.score - AMBIGUITY_MARGIN).slice(0, MAX_ALTERNATIVES);
  const alternatives = close.map((hit) => ({
      label: hit.place.name,
      kind: hit.place.kind,
      lat: hit.place.lat,
      lng: hit.place.lng,
      code: hexCodeForPoint(hit.place.lat, hit.place.lng),
      region: hit.place.region ?? null,
      district: hit.place.district ?? null,
      score: hit.score,
      match: hit.match,
      place_id: hit.place.id,
    }));
  const ambiguous = alternatives.length > 0;
  const structure = isStructure(place);
  const lastSeen = best.dataset?.imported_at ?? null;
  const provenance: Provenance = {
    source: 'geocoded_text',
    provider: providerOf(place, best.dataset),
    accuracy_meters: nominalAccuracy(place),
    confidence: round2(matchConfidence(best.match) * (ambiguous ? AMBIGUOUS_FACTOR : 1)),
    // The place is as its dataset had it when imported.
    verified_at: best.dataset?.imported_at ?? now.toISOString(),
  };
  return {
    lat: place.lat,
    lng: place.lng,
    code,
    display: displayHexCode(code),
    resolution: parsed.resolution,
    cell: parsed.cell,
    precision: structure ? 'structure' : 'place',
    label: place.name,
    last_seen_at: lastSeen,
    provenance,
    points: structure
      ? [{ ...structurePoint({ place, distance_m: 0, dataset: best.dataset }, 0, null, now), provenance: { ...provenance, source: 'third_party_match' } }]
      : [],
    meta: {
      input_kind: 'text',
      matched_by: 'place_search',
      matched_text: text,
      other_codes: [],
      text_match: best.match,
      did_you_mean: didYouMean,
      candidates_considered: hits.length,
      structure_search: null,
      structure_search_skipped: null,
      ambiguous,
      alternatives,
      datasets: datasets.map(datasetView),
      last_seen_basis: 'dataset_import',
      attribution: attributionOf([best, ...close].map((hit) => hit.dataset)),
    },
  };
}

// ---------------------------------------------------------------- rules

const STRUCTURE_KEYS = new Set(['amenity', 'shop', 'tourism', 'healthcare', 'leisure', 'office', 'historic', 'craft', 'aeroway', 'railway', 'highway', 'public_transport', 'man_made', 'building']);

/**
 * A named structure: something built that a person can stand in front of. OSM
 * POIs by their key (amenity, shop, building…; not `place=*` settlements nor
 * `natural=*`), GeoNames features of class S (spot, building, farm).
 */
export function isStructure(place: Pick<ReferencePlace, 'source' | 'feature'>): boolean {
  if (place.source === 'osm') return STRUCTURE_KEYS.has(place.feature.split('=', 1)[0]);
  if (place.source === 'geonames') return place.feature.startsWith('S.');
  return false;
}

/**
 * Radius of the area a place's single point stands for, in metres, by what
 * the place is (docs/adr/0030, "Provenance"): a settlement or an
 * administrative area is one point for its whole extent, whichever dataset
 * placed that point. A city's radius comes from its population at an urban
 * density of 5,000 people per km² (Accra and Kumasi: about 11 km), never
 * under 5 km; other kinds take a typical radius. Undefined for things a
 * person can stand at (structures, stops, peaks).
 */
export const URBAN_DENSITY_PER_KM2 = 5000;
export const MIN_CITY_RADIUS_M = 5000;
export const EXTENT_BY_KIND_M: Readonly<Record<string, number>> = {
  country: 300_000,
  region: 100_000,
  state: 100_000,
  district: 30_000,
  county: 30_000,
  subdistrict: 10_000,
  municipality: 10_000,
  city: MIN_CITY_RADIUS_M,
  town: 3000,
  suburb: 1500,
  village: 1000,
  quarter: 800,
  locality: 500,
  neighbourhood: 500,
  hamlet: 300,
  island: 2000,
  lake: 2000,
  lagoon: 1000,
  reservoir: 1000,
  bay: 2000,
  hills: 2000,
  stream: 1000,
};

export function placeExtentMeters(place: Pick<ReferencePlace, 'kind' | 'population'>): number | undefined {
  if (place.kind === 'city' && typeof place.population === 'number' && place.population > 0) {
    const radius = Math.sqrt(place.population / URBAN_DENSITY_PER_KM2 / Math.PI) * 1000;
    return Math.max(MIN_CITY_RADIUS_M, Math.round(radius / 100) * 100);
  }
  return EXTENT_BY_KIND_M[place.kind];
}

/**
 * Accuracy of a reference point, in metres (its sources state none): how
 * precisely the point is placed, or the place's extent where it stands for an
 * area, whichever is larger. Placement: an OSM node is placed on imagery or
 * by GPS (10 m); a way's point is the mean of its outline (30 m); a GeoNames
 * structure is one point for a building or site (100 m), any other GeoNames
 * point 1 km. An OSM `place=city` node is thus its city's extent, not 10 m.
 */
export function nominalAccuracy(place: Pick<ReferencePlace, 'id' | 'source' | 'feature' | 'kind' | 'population'>): number {
  const placement = place.source === 'osm' ? (place.id.startsWith('osm:node/') ? 10 : 30) : place.feature.startsWith('S.') ? 100 : 1000;
  return Math.max(placement, placeExtentMeters(place) ?? 0);
}

/** How sure a text match is, by how it matched (search's `match`). */
function matchConfidence(match: string): number {
  switch (match) {
    case 'exact':
      return 0.9;
    case 'alternate':
      return 0.85;
    case 'partial':
    case 'prefix':
      return 0.6;
    default:
      return 0.4;
  }
}

function structurePoint(candidate: NearbyReference, distance: number, inCell: boolean | null, now: Date): ResolvedPoint {
  const { place, dataset } = candidate;
  const code = hexCodeForPoint(place.lat, place.lng);
  return {
    label: place.name,
    kind: place.kind,
    lat: place.lat,
    lng: place.lng,
    code,
    display: displayHexCode(code),
    distance_m: distance,
    in_cell: inCell,
    place_id: place.id,
    region: place.region ?? null,
    district: place.district ?? null,
    last_seen_at: dataset?.imported_at ?? null,
    provenance: {
      source: 'third_party_match',
      provider: providerOf(place, dataset),
      accuracy_meters: nominalAccuracy(place),
      // The record is exactly where its source puts it; whether it is what the code's occupant calls home is less sure next door.
      confidence: inCell === false ? 0.5 : 0.8,
      verified_at: dataset?.imported_at ?? now.toISOString(),
    },
  };
}

function providerOf(place: ReferencePlace, dataset: DatasetRef | null): string {
  const source = place.source === 'osm' ? 'OpenStreetMap' : place.source === 'geonames' ? 'GeoNames' : place.source;
  return dataset ? `${source} (${dataset.dataset}@${dataset.version})` : source;
}

function attributionOf(datasets: ReadonlyArray<DatasetRef | null>): string[] {
  return [...new Set(datasets.flatMap((dataset) => dataset?.attribution ?? []))].sort();
}

function datasetView({ dataset, version, imported_at }: DatasetRef): DatasetRef {
  return { dataset, version, imported_at };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
