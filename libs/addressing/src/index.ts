export {
  DEFAULT_ADDRESS_RESOLUTION,
  HEX_CODE_ALPHABET,
  MAX_CODE_LENGTH,
  MAX_RESOLUTION,
  MIN_CODE_LENGTH,
  MIN_RESOLUTION,
  InvalidCellError,
  InvalidCodeError,
  cellFromHexCode,
  displayHexCode,
  formatHexCode,
  hexCodeForPoint,
  hexCodeFromCell,
  parseHexCode,
  pointForHexCode,
  suggestHexCodes,
  tryParseHexCode,
  type InvalidCodeReason,
  type ParsedHexCode,
} from './domain/hexcode.js';
export { cellCentreProvenance, cellRadiusMeters, HEXCODE_PROVIDER, PROVENANCE_SOURCES, type Provenance, type ProvenanceSource } from './domain/provenance.js';
export { findAddressCodes, type AddressCodeMatch, type AddressTextResult } from './domain/address-text.js';
export { bulkAnswerChunks, MAX_BULK_ITEMS } from './domain/bulk.js';
export { MAX_BULK_JOB_ITEMS } from './domain/bulk-job.js';
// The `hexcode.bulk` job kind (bound to the jobs context by apps/shared/contexts.ts).
export { BulkHexcodeJob, bulkHexcodeJobModule } from './public/bulk-hexcode.job.js';
export { AddressingModule } from './addressing.module.js';
export { addressingManifest } from './manifest.js';
export { ADDRESS_PLACES, type AddressPlaces } from './queries/resolve-address/address-places.port.js';
export { ADDRESS_RESOLVER, type AddressResolving } from './address-resolver.port.js';
export { AddressResolverModule } from './address-resolver.module.js';
export {
  AddressNotConvertibleError,
  AddressNotFoundError,
  classifyAddress,
  isStructure,
  MIN_STRUCTURE_RESOLUTION,
  type DatasetRef,
  type NearbyReference,
  type ReferencePlace,
  type Resolution,
} from './domain/resolve-address.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { addressingContext } from './context.js';
export { REVERSE_PLACES, REVERSE_ROADS, type ReversePlaces, type ReverseRoads } from './naming/reverse-names.port.js';
export { reverseAddress, LANDMARK_RADIUS_M, LOCALITY_RADIUS_M, ROAD_RADIUS_M, type NamedPart, type NamedRoad, type PlaceNames, type ReverseAddress } from './domain/reverse-address.js';
export { DatasetRefSchema, GhanaPostDecodingSchema, ProvenanceSchema, ReverseAddressSchema } from './public/answer-parts.js';
