import type { Resolution } from './domain/resolve-address.js';

/**
 * What GET /v2/address/resolve answers, as a use case other contexts call (identity resolves a claimed address
 * with it; docs/adr/0014, 0066). Throws what the endpoint answers: INVALID_PARAM, INVALID_CODE,
 * ADDRESS_NOT_CONVERTIBLE, ADDRESS_NOT_FOUND, and 503 DATASET_NOT_LOADED for text before any place dataset is
 * imported. Injected by ADDRESS_RESOLVER from AddressResolverModule.over(places).
 */
export interface AddressResolving {
  resolve(address: string): Resolution;
}

export const ADDRESS_RESOLVER = Symbol('AddressResolver');
