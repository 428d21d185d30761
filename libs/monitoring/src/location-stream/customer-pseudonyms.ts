import { createHmac } from 'node:crypto';
import type { SecretBox } from '../../../platform/src/index.js';

/**
 * Keyed pseudonyms of (account, customer): what names a customer's documents
 * in read models and caches (drift_state, the ping-id index, snapshots)
 * instead of the customer id (issue 10, item 6). An HMAC under a service key
 * derived from DATA_ENCRYPTION_KEY: without that key a pseudonym cannot be
 * recomputed from a guessed customer id, so the tombstones and freed pages an
 * erasure leaves behind in a read store name nobody (ADR 12).
 */
export class CustomerPseudonyms {
  constructor(private readonly key: Buffer) {}

  static fromSecretBox(box: SecretBox): CustomerPseudonyms {
    return new CustomerPseudonyms(box.deriveKey('monitoring customer pseudonyms'));
  }

  /** The customer's pseudonym: 192 bits, base64url. */
  of(accountId: string, customerId: string): string {
    return this.keyed('customer', accountId, customerId);
  }

  /** A pseudonym of any parts: a document id that must not reveal what it is about (a customer's ten-minute bucket). */
  keyed(...parts: string[]): string {
    const mac = createHmac('sha256', this.key);
    // Length-prefixed, so no two lists of parts hash alike.
    for (const part of parts) mac.update(`${Buffer.byteLength(part)}:${part}|`);
    return mac.digest('base64url').slice(0, 32);
  }
}
