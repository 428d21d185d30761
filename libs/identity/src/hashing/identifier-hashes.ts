import type { VerificationSignals } from '../domain/verification.js';
import type { IdentityHashing } from './identity-hashing.js';

/** The keyed hashes of the identifiers a verification request carried (the clear values go no further). */
export function identifierHashes(
  hashing: IdentityHashing,
  input: { account_id: string; customer_id: string; device_id: string | null; phone: string | null; email: string | null; client_ip: string | null },
): VerificationSignals {
  const { account_id } = input;
  return {
    customer_hash: hashing.customer(account_id, input.customer_id),
    device_hash: input.device_id === null ? null : hashing.device(account_id, input.device_id),
    ip_hash: input.client_ip === null ? null : hashing.ip(account_id, input.client_ip),
    phone_hash: input.phone === null ? null : hashing.phone(account_id, input.phone),
    email_hash: input.email === null ? null : hashing.email(account_id, input.email),
  };
}
