import type { AddressResolving } from '../../../addressing/src/index.js';
import type { ClaimedAddress } from '../domain/proximity.js';

/**
 * The address a customer claims, through the addressing context's resolver
 * (GET /v2/address/resolve's rules): a hex code in any shape resolves to its
 * cell centre, accurate to the cell's radius; text to the best place of the
 * reference data, accurate to that place's nominal accuracy. Throws what
 * resolve answers (INVALID_CODE, ADDRESS_NOT_FOUND, 503 DATASET_NOT_LOADED
 * for text before any place dataset is imported…), all naming `address`.
 */
export function claimAddress(resolver: AddressResolving, address: string): ClaimedAddress {
  const resolved = resolver.resolve(address);
  return {
    input: address,
    code: resolved.code,
    input_kind: resolved.meta.input_kind,
    precision: resolved.precision,
    label: resolved.label,
    lat: resolved.lat,
    lng: resolved.lng,
    accuracy_m: resolved.provenance.accuracy_meters,
  };
}
