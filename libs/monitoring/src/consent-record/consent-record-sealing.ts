import { SealedFields, type DataKeyVault } from '../../../platform/src/index.js';
import type { ConsentRecordSeal, SealedCustomer } from '../domain/consent.js';
import type { CustomerPseudonyms } from '../location-stream/customer-pseudonyms.js';

/**
 * The customer id in a listed consent record (docs/adr/0032, "Listing"; ADR
 * 12's erasure rule): the `consents` read model keys its documents by the
 * customer's keyed pseudonym and holds the id only sealed (AES-256-GCM) under
 * a data key of the customer's own, which `POST /v2/consent/delete-data`
 * destroys with their location key. Old copies of a document (LMDB's freed
 * pages, a MongoDB oplog) then hold noise.
 *
 * A second key rather than the location key: the list must find the key from
 * what the document holds (account and pseudonym), and the location key's
 * vault subject is the customer id itself. Its subject names the pseudonym,
 * which only the service key can compute from an id.
 */
export class ConsentRecordSealing {
  private readonly fields = new SealedFields();

  constructor(
    private readonly vault: DataKeyVault,
    private readonly pseudonyms: CustomerPseudonyms,
  ) {}

  static subject(accountId: string, pseudonym: string): string {
    return `consent-record|${accountId}|${pseudonym}`;
  }

  pseudonymOf(accountId: string, customerId: string): string {
    return this.pseudonyms.of(accountId, customerId);
  }

  /** The pseudonym and the id sealed under the record key, created on first use: call it only for a consent being granted or standing. */
  async seal(accountId: string, customerId: string): Promise<ConsentRecordSeal> {
    const pseudonym = this.pseudonymOf(accountId, customerId);
    const key = await this.vault.obtain(ConsentRecordSealing.subject(accountId, pseudonym));
    return { pseudonym, customer_sealed: { key_id: key.id, sealed: this.fields.sealValue(key, context(accountId, pseudonym), customerId) } };
  }

  /** The customer id, or null once its key is destroyed (or the value was not sealed for this record). */
  async open(accountId: string, pseudonym: string, sealed: SealedCustomer | null): Promise<string | null> {
    if (!sealed) return null;
    const key = await this.vault.find(ConsentRecordSealing.subject(accountId, pseudonym), sealed.key_id);
    if (!key) return null;
    try {
      const id = this.fields.openValue<unknown>(key, context(accountId, pseudonym), sealed.sealed);
      return typeof id === 'string' ? id : null;
    } catch {
      return null;
    }
  }

  /** Part of an erasure: every sealed copy of the id becomes noise. Destroying twice is harmless. */
  shred(accountId: string, customerId: string): Promise<void> {
    return this.vault.destroy(ConsentRecordSealing.subject(accountId, this.pseudonymOf(accountId, customerId)));
  }
}

/** Binds a sealed id to its record: it cannot be moved to another account's or customer's document. */
function context(accountId: string, pseudonym: string): string {
  return `consent-record|${accountId}|${pseudonym}`;
}
