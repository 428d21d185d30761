import { createHash } from 'node:crypto';
import type { ConsentState } from '../domain/consent.js';
import { CONSENT_RECEIPT_TYP, consentReceiptClaims, type ReceiptEvent } from '../domain/consent-receipt.js';
import type { ConsentReceipt, ConsentReceiptSigner } from '../public/consent-receipts.port.js';

export const JWKS_PATH = '/v2/.well-known/jwks.json';

export type { ConsentReceipt };

/**
 * A grant's id: its own, or for a grant recorded before ids were kept, one
 * derived from what identifies it (account, customer, time recorded), so its
 * replay always names it the same way.
 */
export function consentIdOf(accountId: string, customerId: string, state: Exclude<ConsentState, { status: 'none' }>): string {
  if (state.consent_id) return state.consent_id;
  return `cr_legacy_${createHash('sha256').update(`${accountId}\n${customerId}\n${state.granted_at}`).digest('hex').slice(0, 32)}`;
}

/**
 * Issues the receipts of the consent commands (docs/adr/0032, docs/adr/0064):
 * the grant, revoke and delete-data handlers sign with it once their events
 * are recorded, so every dispatcher of those commands gets the receipt. Its
 * signer is fixed when the module is built: the one bound to
 * CONSENT_RECEIPT_SIGNER, or none (a process without the identity context),
 * and then every receipt is null.
 */
export class ConsentReceipts {
  constructor(private readonly signer: ConsentReceiptSigner | null) {}

  /** Whether this process signs receipts (false: every receipt is null). */
  get signs(): boolean {
    return this.signer !== null;
  }

  /** Signs the receipt of one consent event; null when this process has no signer. */
  async issue(input: { accountId: string; customerId: string; state: Exclude<ConsentState, { status: 'none' }>; event: ReceiptEvent }): Promise<ConsentReceipt | null> {
    const signer = this.signer;
    if (!signer) return null;
    const claims = consentReceiptClaims({ issuer: signer.issuer, accountId: input.accountId, customerId: input.customerId, consentId: consentIdOf(input.accountId, input.customerId, input.state), state: input.state, event: input.event });
    const { token, kid } = await signer.sign(claims, CONSENT_RECEIPT_TYP);
    return { token, kid, typ: CONSENT_RECEIPT_TYP, jwks_url: `${signer.issuer.replace(/\/$/, '')}${JWKS_PATH}` };
  }
}
