// What bench/ measures inside this context (docs/adr/0066): bench reaches a context through its index.ts or its
// testing helpers, as test/ does (rule bench-through-index), so an internal a benchmark times is named here and
// nowhere in the contract. Production code may not import it (testing-stays-in-tests).
export { CustomerPseudonyms } from '../location-stream/customer-pseudonyms.js';
export { LocationCaches } from '../location-stream/location-caches.js';
export { LocationCodec } from '../location-stream/location-codec.js';
export { ConsentProofCodec } from '../consent-record/consent-proof-codec.js';
export { ConsentRecordSealing } from '../consent-record/consent-record-sealing.js';
export { ConsentNoticeRegistry } from '../consent-notices/consent-notice-registry.js';
export { grantConsent } from '../commands/grant-consent/grant-consent.handler.js';
export { recordCustomerPings, RecordPingsCommand, RecordPingsHandler } from '../commands/record-pings/record-pings.handler.js';
export { RecordPingBatchCommand, RecordPingBatchHandler, type PingsResult } from '../commands/record-pings/record-pings.process.js';
export { PingsRecordedSchema } from '../commands/record-pings/record-pings.answer.js';
export { registerZone } from '../commands/register-zone/register-zone.handler.js';
