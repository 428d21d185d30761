import type { IdentifierKind, LinkedCustomers, Observation } from '../domain/fraud.js';

/**
 * Where each fraud check reads its signals: one source per sub-check, so a
 * failing or slow one takes down its own check only (fail open, with a
 * deadline each: `run-fraud-checks.ts`). Bound to the `identity_signals`
 * read model (`read-model-fraud-signals.ts`); tests bind failing ones.
 */
export interface FraudSignals {
  velocity: {
    /** Earlier observations of the customer and, when given, of the device (earlier verifications). */
    observationsOf(accountId: string, subjects: { customer_hash: string; device_hash: string | null }): Promise<Observation[]>;
    /**
     * The pings monitoring recorded for the customer at or after `since`, the
     * newest `limit`, when location consent is granted now (none otherwise):
     * velocity weighs everything the service holds, not only verifications.
     */
    recordedPingsOf(accountId: string, customerId: string, since: Date, limit: number): Promise<Observation[]>;
  };
  ipBulk: {
    customersFromIp(accountId: string, ipHash: string): Promise<LinkedCustomers>;
  };
  deviceBulk: {
    customersOnDevice(accountId: string, deviceHash: string): Promise<LinkedCustomers>;
  };
  syntheticIdentity: {
    customersSharing(accountId: string, identifiers: ReadonlyArray<{ kind: IdentifierKind; hash: string }>): Promise<Array<{ kind: IdentifierKind; linked: LinkedCustomers }>>;
  };
}

export const FRAUD_SIGNALS = Symbol('FraudSignals');
