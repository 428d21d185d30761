/**
 * Signs consent receipts (docs/adr/0032). Monitoring defines the port, the
 * identity context fills the slot with its certificate signer (identity
 * already depends on monitoring, so monitoring never imports identity), and
 * the keys are the ones GET /v2/.well-known/jwks.json serves.
 */
export interface ConsentReceiptSigner {
  sign(claims: object, typ: string): Promise<{ token: string; kid: string }>;
  /** The `iss` of every signed artefact (PUBLIC_BASE_URL). */
  readonly issuer: string;
}

/** Filled by the identity context at start; empty in processes without it (receipts are then null). */
export class ConsentReceiptSignerSlot {
  current: ConsentReceiptSigner | null = null;
}
