import { Command } from '@nestjs/cqrs';
import type { ConsentState, GrantConsent } from '../domain/consent.js';
import type { ConsentReceipt } from './consent-receipts.port.js';

/**
 * Granting, revoking and erasing consent as commands on the bus (docs/adr/0064):
 * monitoring's HTTP doors dispatch them, and so may an operator command or a
 * process handler. Each answers its signed receipt (docs/adr/0032), signed by
 * the handler once the event is recorded; `receipt` is null only in a process
 * with no ConsentReceiptSigner bound (no identity context).
 */

export type GrantedConsent = Extract<ConsentState, { status: 'granted' }>;
export type RevokedConsent = Extract<ConsentState, { status: 'revoked' }>;

/** The consent as the grant left it (a repeated identical grant: the standing one), its id and its receipt. */
export interface ConsentGrant {
  state: GrantedConsent;
  consent_id: string;
  receipt: ConsentReceipt | null;
}

/** The consent as the revoke left it (collection stopped), its id and the revocation's receipt. */
export interface ConsentRevocation {
  state: RevokedConsent;
  consent_id: string;
  receipt: ConsentReceipt | null;
}

/** The erasure's record, the consent as it left it (revoked, erased), its id and the erasure's receipt. */
export interface ConsentErasure {
  erased_at: string;
  events_erased: number;
  consent: RevokedConsent;
  consent_id: string;
  receipt: ConsentReceipt | null;
}

/**
 * POST /v2/consent/grant. `consent_id` is minted by the handler when the
 * dispatcher gives none; `seal` and `account_opened_at` are the command's own
 * (its `prepare`), never a dispatcher's.
 */
export class GrantConsentCommand extends Command<ConsentGrant> {
  constructor(readonly input: Omit<GrantConsent, 'seal' | 'account_opened_at'>) {
    super();
  }
}

/** POST /v2/consent/revoke: the consent is revoked, then collection stops. */
export class RevokeConsentCommand extends Command<ConsentRevocation> {
  constructor(
    readonly accountId: string,
    readonly customerId: string,
  ) {
    super();
  }
}

/** POST /v2/consent/delete-data; `erasedBy` names who erased (the calling key's prefix over HTTP). */
export class DeleteConsentDataCommand extends Command<ConsentErasure> {
  constructor(
    readonly accountId: string,
    readonly customerId: string,
    readonly erasedBy: string,
  ) {
    super();
  }
}
