import { createHash } from 'node:crypto';
import type { ConsentState } from '../domain/consent.js';
import { CONSENT_RECEIPT_TYP, consentReceiptClaims, type ReceiptEvent } from '../domain/consent-receipt.js';
import type { ConsentReceiptSignerSlot } from '../public/consent-receipts.port.js';

export const JWKS_PATH = '/v2/.well-known/jwks.json';

export interface ConsentReceipt {
  /** Compact JWS (EdDSA); verify with the JWKS at `jwks_url`, e.g. scripts/verify-consent-receipt.mjs. */
  token: string;
  kid: string;
  typ: typeof CONSENT_RECEIPT_TYP;
  jwks_url: string;
}

/**
 * A grant's id: its own, or for a grant recorded before ids were kept, one
 * derived from what identifies it (account, customer, time recorded), so its
 * replay always names it the same way.
 */
export function consentIdOf(accountId: string, customerId: string, state: Exclude<ConsentState, { status: 'none' }>): string {
  if (state.consent_id) return state.consent_id;
  return `cr_legacy_${createHash('sha256').update(`${accountId}\n${customerId}\n${state.granted_at}`).digest('hex').slice(0, 32)}`;
}

/** Signs the receipt of one consent event; null when this process has no signer (docs/adr/0032). */
export async function issueConsentReceipt(slot: ConsentReceiptSignerSlot, input: { accountId: string; customerId: string; state: Exclude<ConsentState, { status: 'none' }>; event: ReceiptEvent }): Promise<ConsentReceipt | null> {
  const signer = slot.current;
  if (!signer) return null;
  const claims = consentReceiptClaims({ issuer: signer.issuer, accountId: input.accountId, customerId: input.customerId, consentId: consentIdOf(input.accountId, input.customerId, input.state), state: input.state, event: input.event });
  const { token, kid } = await signer.sign(claims, CONSENT_RECEIPT_TYP);
  return { token, kid, typ: CONSENT_RECEIPT_TYP, jwks_url: `${signer.issuer.replace(/\/$/, '')}${JWKS_PATH}` };
}
