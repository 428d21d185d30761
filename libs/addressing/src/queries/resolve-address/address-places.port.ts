import type { DatasetRef, NearbyReference, ReferencePlace } from '../../domain/resolve-address.js';

/**
 * The reference places GET /v2/address/resolve reads: a port, because the
 * places context already depends on addressing (its landmarks speak hex
 * codes), so addressing importing places would close a cycle. The
 * composition root binds it to the places context's Gazetteer
 * (`AddressingModule.withPlaces`); docs/adr/0014.
 */
export const ADDRESS_PLACES = 'ADDRESS_PLACES';

export interface AddressPlaces {
  /** The live dataset versions; empty before any import. */
  readonly datasets: readonly DatasetRef[];
  /** Place search by text; throws a 503 DATASET_NOT_LOADED DomainError before any import. */
  search(query: { text: string; limit: number; offset: number }): {
    hits: ReadonlyArray<{ place: ReferencePlace; score: number; match: string; matched_name: string | null }>;
    did_you_mean: string | null;
  };
  /** Places within `radiusM` of a point, nearest first, each with its dataset version. */
  near(lat: number, lng: number, radiusM: number, limit: number): readonly NearbyReference[];
  /** The loaded dataset version a place came from. */
  datasetOf(placeId: string): DatasetRef | null;
  /** The countries the reference data covers (issue 28, item 8). */
  readonly coverage: { countries: readonly string[] };
  /** The well-known place outside coverage a text names ("Lagos"), or null. */
  outsideCoverage(text: string): OutsideCoverageNote | null;
}

export interface OutsideCoverageNote {
  name: string;
  country: string;
  country_name: string;
  note: string;
}
