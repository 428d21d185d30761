import { createHmac } from 'node:crypto';
import type { DataKeyVault } from '../../../platform/src/index.js';

/**
 * Keyed hashes (HMAC-SHA256) of the identifiers the identity context must
 * compare but never keep: the certificate subject, and the customer, device,
 * client IP, phone and e-mail behind the fraud signals. Every hash includes
 * the account, so the same phone under two accounts hashes differently and
 * no signal links one account's customers to another's.
 *
 * The key is a data key of the platform vault (created on first use, the
 * same in every process, wrapped with DATA_ENCRYPTION_KEY at rest): without
 * it the hashes of a leaked read model cannot be tested against a phone book.
 */
export class IdentityHashing {
  /** The vault subject of the key; `#` never starts a monitoring subject (`<account>:<customer>`). */
  static readonly vaultSubject = '#identity/pseudonyms';

  constructor(private readonly key: Buffer) {}

  static async open(vault: DataKeyVault): Promise<IdentityHashing> {
    return new IdentityHashing((await vault.obtain(IdentityHashing.vaultSubject)).key);
  }

  /** A certificate's `sub`: the customer as a third party sees it. */
  subject(accountId: string, customerId: string): string {
    return `sub_${this.hash('subject', accountId, customerId)}`;
  }

  /** A receipt's `sub`. */
  deliverySubject(accountId: string, deliveryId: string): string {
    return `sub_${this.hash('delivery', accountId, deliveryId)}`;
  }

  customer(accountId: string, customerId: string): string {
    return this.hash('customer', accountId, customerId);
  }

  device(accountId: string, deviceId: string): string {
    return this.hash('device', accountId, deviceId);
  }

  ip(accountId: string, ip: string): string {
    return this.hash('ip', accountId, ip.toLowerCase());
  }

  /** Digits only: "+233 24 123 4567" and "233241234567" are one phone. */
  phone(accountId: string, phone: string): string {
    return this.hash('phone', accountId, phone.replace(/\D/g, ''));
  }

  email(accountId: string, email: string): string {
    return this.hash('email', accountId, email.trim().toLowerCase());
  }

  private hash(kind: string, accountId: string, value: string): string {
    // Length-prefixed parts: no two (kind, account, value) triples hash the same input.
    const input = [kind, accountId, value].map((part) => `${part.length}:${part}`).join('|');
    return createHmac('sha256', this.key).update(input).digest('base64url').slice(0, 32);
  }
}
