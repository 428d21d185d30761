/**
 * What banking asks of identity's KYC record (issue 52, docs/adr/0066): the address code of a customer's latest
 * KYC verification, opened with the customer's data key (ADR 0054); undefined when there is none, or when it was
 * erased with the customer's location data. Banking's re-verification schedule by customer injects it by
 * VERIFIED_ADDRESSES instead of reading identity's verification stream.
 */
export interface VerifiedAddresses {
  lastVerifiedAddressCode(accountId: string, customerId: string): Promise<string | undefined>;
}

export const VERIFIED_ADDRESSES = Symbol('VerifiedAddresses');
