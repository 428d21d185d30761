// What projections/drift-state needs to build the drift_state read model: its name, version, document and the
// stored form of a sealed event it copies. Other contexts read positions through the CustomerLocations port.
export { DRIFT_STATE_PROJECTION, DRIFT_STATE_VERSION, type DriftStateDoc, type SealedPart } from '../drift/drift-state.read-model.js';
export type { SealedLocationData } from '../location-stream/location-sealing.js';
// What projections/consents needs to build the consents read model (GET /v2/consents).
export { CONSENT_RECORD_INDEXES, CONSENTS_PROJECTION, CONSENTS_VERSION, type ConsentRecordDoc } from '../consent-record/consent-record.read-model.js';
