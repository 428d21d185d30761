/**
 * The pings the monitoring context has recorded for a customer, as KYC
 * evidence (POST /v2/kyc/verify: "where the customer consented to
 * monitoring, the pings already recorded"). The port is the identity
 * context's; the monitoring context implements it (its
 * `queries/location-evidence/`), opening the customer's sealed location
 * stream with their data key. Only counts derived from these pings are ever
 * stored by identity: the positions stay erasable with the customer's key.
 */
export interface EvidencePing {
  lat: number;
  lng: number;
  accuracy_m: number | null;
  recorded_at: string;
  /** When the ping reached the service (absent from pings stored before it was kept in the answer). */
  received_at?: string;
  /** The client reported the fix as simulated (true) or not (false); absent when it did not say. Counted as an asserted mock position is (docs/adr/0030). */
  mock_location?: boolean;
}

export type RecordedEvidence = { consent: 'granted'; pings: EvidencePing[] } | { consent: 'not_granted' };

export interface LocationEvidence {
  /** The customer's pings recorded at or after `since`, newest first, at most `limit`, when location consent is granted now. */
  recordedPings(accountId: string, customerId: string, since: Date, limit: number): Promise<RecordedEvidence>;
}

export const LOCATION_EVIDENCE = Symbol('LocationEvidence');
