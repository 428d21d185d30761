import type { Decider } from '../../../platform/src/commands/decider.js';
import { InvalidParamError } from '../../../platform/src/errors.js';
import { AlreadyPairedError, LocatorLimitError, OwnShareCodeError, PairingNotFoundError, ShareCodeInvalidError, ShareCodeNotFoundError } from './errors.js';

/**
 * One share, from the code its owner mints to the pairing a viewer redeems it
 * into and its revocation (interface.md, "Partner locator" states):
 *
 *   (none) ─issue→ issued ─redeem→ paired ─revoke→ revoked
 *                        └─cancel→ cancelled (the owner takes back an unused code)
 *
 * The stream is named by a keyed digest of the code (`locator_share-<digest>`),
 * so a redemption finds its share without an index and two redemptions of
 * one code meet on one stream: the append's expected revision lets one win.
 * The pairing id is the share id (random, minted with the code).
 */
export const SHARE_EVENT_TYPES = ['LocatorShareCodeIssued', 'LocatorShareCodeRedeemed', 'LocatorPairingRevoked', 'LocatorShareCodeCancelled'] as const;

/** How long a code can be redeemed (docs/adr/0020): long enough to read it out over the phone. */
export const SHARE_CODE_TTL_S = 600;
/** Bounds of a pairing's chosen lifetime (`share_for_s`); absent, a pairing lasts until revoked. */
export const MIN_SHARE_FOR_S = 300;
export const MAX_SHARE_FOR_S = 30 * 24 * 3600;
/** Live (issued, unredeemed, unexpired) codes per owner. */
export const MAX_LIVE_CODES = 10;
/** Active pairings per owner (who can see me) and per viewer (whom I can see). */
export const MAX_VIEWERS = 50;
export const MAX_WATCHING = 100;
export const MAX_LABEL_LENGTH = 60;

export interface LocatorShareCodeIssued {
  type: 'LocatorShareCodeIssued';
  data: {
    share_id: string;
    owner_account_id: string;
    issued_at: string;
    code_expires_at: string;
    /** The pairing's lifetime from its redemption; null: until revoked. */
    share_for_s: number | null;
    /** The owner's own note on whom the code is for; shown only to the owner. */
    label: string | null;
  };
}
export interface LocatorShareCodeRedeemed {
  type: 'LocatorShareCodeRedeemed';
  data: { share_id: string; owner_account_id: string; viewer_account_id: string; paired_at: string; expires_at: string | null };
}
export interface LocatorPairingRevoked {
  type: 'LocatorPairingRevoked';
  data: { share_id: string; owner_account_id: string; viewer_account_id: string; revoked_by: PairingSide; revoked_at: string };
}
/** Not in interface.md: an owner takes back a code sent to the wrong person before anyone redeems it. */
export interface LocatorShareCodeCancelled {
  type: 'LocatorShareCodeCancelled';
  data: { share_id: string; owner_account_id: string; cancelled_at: string };
}
export type ShareEvent = LocatorShareCodeIssued | LocatorShareCodeRedeemed | LocatorPairingRevoked | LocatorShareCodeCancelled;

/** Which end of a pairing acts: the owner stops a viewer, or a viewer stops watching. */
export type PairingSide = 'owner' | 'viewer';

export interface Offer {
  share_id: string;
  owner_account_id: string;
  issued_at: string;
  code_expires_at: string;
  share_for_s: number | null;
  label: string | null;
}
export interface Pairing {
  viewer_account_id: string;
  paired_at: string;
  expires_at: string | null;
}
export type ShareState =
  | { status: 'none' }
  | { status: 'issued'; offer: Offer }
  | { status: 'paired'; offer: Offer; pairing: Pairing }
  | { status: 'revoked'; offer: Offer; pairing: Pairing; revoked_by: PairingSide; revoked_at: string }
  | { status: 'cancelled'; offer: Offer; cancelled_at: string };

export const initialShareState: ShareState = { status: 'none' };

export function shareStream(codeDigest: string): string {
  return `locator_share-${codeDigest}`;
}

export function evolveShare(state: ShareState, event: ShareEvent): ShareState {
  switch (event.type) {
    case 'LocatorShareCodeIssued':
      return { status: 'issued', offer: { ...event.data } };
    case 'LocatorShareCodeRedeemed': {
      if (state.status !== 'issued') return state;
      const { viewer_account_id, paired_at, expires_at } = event.data;
      return { status: 'paired', offer: state.offer, pairing: { viewer_account_id, paired_at, expires_at } };
    }
    case 'LocatorPairingRevoked':
      if (state.status !== 'paired') return state;
      return { status: 'revoked', offer: state.offer, pairing: state.pairing, revoked_by: event.data.revoked_by, revoked_at: event.data.revoked_at };
    case 'LocatorShareCodeCancelled':
      if (state.status !== 'issued') return state;
      return { status: 'cancelled', offer: state.offer, cancelled_at: event.data.cancelled_at };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export interface IssueShareCode {
  type: 'IssueShareCode';
  share_id: string;
  owner_account_id: string;
  /** Keyed digest of the code: names the stream, never stored in an event. */
  code_digest: string;
  share_for_s: number | null;
  label: string | null;
  /** The owner's live codes now (filled in by the handler's `prepare` from the read model). */
  live_codes: number;
}
export interface RedeemShareCode {
  type: 'RedeemShareCode';
  code_digest: string;
  viewer_account_id: string;
  /** Filled in by `prepare` once the owner is known: an active pairing of this viewer with this owner, if any. */
  existing_pairing_id: string | null;
  /** The owner's active viewers and the viewer's active targets now. */
  owner_viewers: number;
  viewer_watching: number;
}
export interface RevokePairing {
  type: 'RevokePairing';
  share_id: string;
  actor_account_id: string;
  side: PairingSide;
}
export interface CancelShareCode {
  type: 'CancelShareCode';
  share_id: string;
  actor_account_id: string;
}
export type ShareCommand = IssueShareCode | RedeemShareCode | RevokePairing | CancelShareCode;

/** The pairing is in force at `now`: redeemed, not revoked, not past its chosen expiry. */
export function isPairingActive(state: ShareState, now: Date): state is Extract<ShareState, { status: 'paired' }> {
  return state.status === 'paired' && (state.pairing.expires_at === null || now.getTime() < Date.parse(state.pairing.expires_at));
}

/** The code can be redeemed at `now`: issued, not redeemed, not expired. */
export function isCodeLive(state: ShareState, now: Date): state is Extract<ShareState, { status: 'issued' }> {
  return state.status === 'issued' && now.getTime() < Date.parse(state.offer.code_expires_at);
}

/** The same digest twice: ids and codes are random, so this is a defect, never a client error. */
export class ShareCodeCollisionError extends Error {}

function decideShare(command: ShareCommand, state: ShareState, now: Date): ShareEvent[] {
  switch (command.type) {
    case 'IssueShareCode': {
      if (state.status !== 'none') throw new ShareCodeCollisionError('a share code was minted twice');
      if (command.live_codes >= MAX_LIVE_CODES) {
        throw new LocatorLimitError('SHARE_CODE_LIMIT_REACHED', MAX_LIVE_CODES, `you have ${MAX_LIVE_CODES} unused share codes; wait until one is redeemed or expires`);
      }
      if (command.share_for_s !== null && (!Number.isInteger(command.share_for_s) || command.share_for_s < MIN_SHARE_FOR_S || command.share_for_s > MAX_SHARE_FOR_S)) {
        throw new InvalidParamError(`share_for_s must be an integer from ${MIN_SHARE_FOR_S} to ${MAX_SHARE_FOR_S} (seconds), or absent`, 'share_for_s');
      }
      const { share_id, owner_account_id, share_for_s, label } = command;
      const codeExpiresAt = new Date(now.getTime() + SHARE_CODE_TTL_S * 1000).toISOString();
      return [{ type: 'LocatorShareCodeIssued', data: { share_id, owner_account_id, issued_at: now.toISOString(), code_expires_at: codeExpiresAt, share_for_s, label } }];
    }
    case 'RedeemShareCode': {
      // Unknown, redeemed, revoked and expired codes answer alike (no oracle).
      if (!isCodeLive(state, now)) throw new ShareCodeInvalidError();
      const { offer } = state;
      if (offer.owner_account_id === command.viewer_account_id) throw new OwnShareCodeError();
      if (command.existing_pairing_id !== null) throw new AlreadyPairedError(command.existing_pairing_id);
      if (command.owner_viewers >= MAX_VIEWERS) {
        throw new LocatorLimitError('VIEWER_LIMIT_REACHED', MAX_VIEWERS, `this person already shares their location with ${MAX_VIEWERS} people`);
      }
      if (command.viewer_watching >= MAX_WATCHING) {
        throw new LocatorLimitError('WATCHING_LIMIT_REACHED', MAX_WATCHING, `you already see ${MAX_WATCHING} people; stop watching someone first`);
      }
      const expiresAt = offer.share_for_s === null ? null : new Date(now.getTime() + offer.share_for_s * 1000).toISOString();
      return [
        {
          type: 'LocatorShareCodeRedeemed',
          data: { share_id: offer.share_id, owner_account_id: offer.owner_account_id, viewer_account_id: command.viewer_account_id, paired_at: now.toISOString(), expires_at: expiresAt },
        },
      ];
    }
    case 'RevokePairing': {
      // Someone else's pairing, one already ended (revoked or expired), or none: one answer.
      if (!isPairingActive(state, now) || state.offer.share_id !== command.share_id) throw new PairingNotFoundError();
      const party = command.side === 'owner' ? state.offer.owner_account_id : state.pairing.viewer_account_id;
      if (party !== command.actor_account_id) throw new PairingNotFoundError();
      return [
        {
          type: 'LocatorPairingRevoked',
          data: {
            share_id: state.offer.share_id,
            owner_account_id: state.offer.owner_account_id,
            viewer_account_id: state.pairing.viewer_account_id,
            revoked_by: command.side,
            revoked_at: now.toISOString(),
          },
        },
      ];
    }
    case 'CancelShareCode': {
      // Someone else's code, one already redeemed, cancelled or expired, or none: one answer.
      if (!isCodeLive(state, now) || state.offer.share_id !== command.share_id || state.offer.owner_account_id !== command.actor_account_id) throw new ShareCodeNotFoundError();
      return [{ type: 'LocatorShareCodeCancelled', data: { share_id: state.offer.share_id, owner_account_id: state.offer.owner_account_id, cancelled_at: now.toISOString() } }];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const shareDecider: Decider<ShareCommand, ShareState, ShareEvent> = {
  initialState: initialShareState,
  evolve: evolveShare,
  decide: decideShare,
};
