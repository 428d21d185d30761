import type { CONSENT_RECEIPT_TYP } from '../domain/consent-receipt.js';

/**
 * Signs consent receipts (docs/adr/0032, docs/adr/0064). Monitoring defines the
 * port and its token; the identity context provides it with its certificate
 * signer (identity already depends on monitoring, so monitoring never imports
 * identity), and the keys are the ones GET /v2/.well-known/jwks.json serves.
 */
export interface ConsentReceiptSigner {
  sign(claims: object, typ: string): Promise<{ token: string; kid: string }>;
  /** The `iss` of every signed artefact (PUBLIC_BASE_URL). */
  readonly issuer: string;
}

/**
 * Nest token of the ConsentReceiptSigner. Resolved once, when MonitoringModule
 * is built (an optional dependency): the identity module provides it globally,
 * so every process composed with identity signs. A module graph without it
 * (monitoring alone) answers `receipt: null` and says so in its log.
 */
export const CONSENT_RECEIPT_SIGNER = Symbol('ConsentReceiptSigner');

/** A signed receipt as the consent commands answer it (and POST /v2/consent/grant, /revoke, /delete-data serve it). */
export interface ConsentReceipt {
  /** Compact JWS (EdDSA); verify with the JWKS at `jwks_url`, e.g. scripts/verify-consent-receipt.mjs. */
  token: string;
  kid: string;
  typ: typeof CONSENT_RECEIPT_TYP;
  jwks_url: string;
}
