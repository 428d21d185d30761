/**
 * Monitoring's keyed pseudonym of (account, customer) (ADR 12,
 * `location-stream/customer-pseudonyms.ts`): an HMAC under a service key, what
 * read models name a customer by instead of their id. `CustomerDataErased`
 * carries it, so a read model of another context keyed by it drops the
 * customer's documents on the erasure without holding any key (banking's
 * `collection_loans`, docs/adr/0055). Without the service key a pseudonym
 * cannot be recomputed from a guessed customer id.
 */
export interface CustomerPseudonymPort {
  /** 192 bits, base64url; the same in every process of a deployment. */
  of(accountId: string, customerId: string): string;
}

export const CUSTOMER_PSEUDONYMS = Symbol('CustomerPseudonyms');
