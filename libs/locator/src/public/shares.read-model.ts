import { collectionName, type IndexSpec, type ReadCollection, type ReadStore } from '../../../platform/src/index.js';
import type { PairingSide, ShareEvent } from '../domain/share.js';

/**
 * The `locator_shares` read model (projections/locator-shares): one document
 * per share, from code to pairing to revocation. It answers who can see whom
 * (GET /v2/locator/viewers, /watching), finds a pairing's stream by its id,
 * and counts live codes and active pairings for the caps. It holds account
 * ids and times, never a position or a code.
 *
 * `ends_at` is when the document stops counting: the code's expiry while
 * issued, the pairing's expiry (or FAR_FUTURE) while paired, the revocation
 * (or cancellation) time once ended. Queries ask for `ends_at > now`, so an expired code or
 * pairing drops out of every list at its expiry with nothing written; the
 * streams, read when it matters (a location read, a revocation), decide on
 * their own at the request's time as well.
 */
export const LOCATOR_SHARES_READ_MODEL = { name: 'locator_shares', version: 1 } as const;
/** Sorts after every real time: the `ends_at` of a pairing without expiry. */
export const FAR_FUTURE = '9999-12-31T23:59:59.999Z';

export const LOCATOR_SHARE_INDEXES: IndexSpec[] = [
  { name: 'by_owner', fields: ['owner_account_id', 'status', 'ends_at'] },
  { name: 'by_viewer', fields: ['viewer_account_id', 'status', 'ends_at'] },
  { name: 'by_pair', fields: ['owner_account_id', 'viewer_account_id', 'status', 'ends_at'] },
];

export interface LocatorShareDoc {
  [field: string]: unknown;
  /** The share id, which is also the pairing id. */
  id: string;
  /** `locator_share-<digest>`: where revocations are appended. */
  stream: string;
  owner_account_id: string;
  viewer_account_id: string | null;
  status: 'issued' | 'paired' | 'revoked' | 'cancelled';
  label: string | null;
  issued_at: string;
  code_expires_at: string;
  share_for_s: number | null;
  paired_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  revoked_by: PairingSide | null;
  ends_at: string;
}

/** The document after one more event (an event that cannot apply leaves it as it was). */
export function evolveShareDoc(current: LocatorShareDoc | undefined, stream: string, event: ShareEvent): LocatorShareDoc | undefined {
  switch (event.type) {
    case 'LocatorShareCodeIssued': {
      const { share_id, owner_account_id, issued_at, code_expires_at, share_for_s, label } = event.data;
      return {
        id: share_id,
        stream,
        owner_account_id,
        viewer_account_id: null,
        status: 'issued',
        label,
        issued_at,
        code_expires_at,
        share_for_s,
        paired_at: null,
        expires_at: null,
        revoked_at: null,
        revoked_by: null,
        ends_at: code_expires_at,
      };
    }
    case 'LocatorShareCodeRedeemed':
      if (!current) return current;
      return { ...current, status: 'paired', viewer_account_id: event.data.viewer_account_id, paired_at: event.data.paired_at, expires_at: event.data.expires_at, ends_at: event.data.expires_at ?? FAR_FUTURE };
    case 'LocatorPairingRevoked':
      if (!current) return current;
      return { ...current, status: 'revoked', revoked_at: event.data.revoked_at, revoked_by: event.data.revoked_by, ends_at: event.data.revoked_at };
    case 'LocatorShareCodeCancelled':
      if (!current) return current;
      return { ...current, status: 'cancelled', ends_at: event.data.cancelled_at };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** Reads of the `locator_shares` read model, as of `now`. */
export class ShareDirectory {
  private collection?: Promise<ReadCollection<LocatorShareDoc>>;

  constructor(private readonly readStore: ReadStore) {}

  byId(shareId: string): Promise<LocatorShareDoc | undefined> {
    return this.open().then((collection) => collection.get(shareId));
  }

  /** Codes the owner issued that are neither redeemed nor expired. */
  async liveCodes(ownerAccountId: string, now: Date, limit: number): Promise<LocatorShareDoc[]> {
    return this.find('by_owner', [ownerAccountId, 'issued'], now, limit);
  }

  /** Active pairings in which the owner is seen: who can see me. */
  async viewersOf(ownerAccountId: string, now: Date, limit: number): Promise<LocatorShareDoc[]> {
    return this.find('by_owner', [ownerAccountId, 'paired'], now, limit);
  }

  /** Active pairings in which the viewer sees: whom I can see. */
  async watchedBy(viewerAccountId: string, now: Date, limit: number): Promise<LocatorShareDoc[]> {
    return this.find('by_viewer', [viewerAccountId, 'paired'], now, limit);
  }

  /** Active pairings from this owner to this viewer (at most one unless two redemptions raced). */
  async between(ownerAccountId: string, viewerAccountId: string, now: Date): Promise<LocatorShareDoc[]> {
    return this.find('by_pair', [ownerAccountId, viewerAccountId, 'paired'], now, 10);
  }

  private async find(index: string, equals: string[], now: Date, limit: number): Promise<LocatorShareDoc[]> {
    const collection = await this.open();
    const page = await collection.find({ index, equals, range: { gt: now.toISOString() }, limit });
    return page.items;
  }

  private open(): Promise<ReadCollection<LocatorShareDoc>> {
    this.collection ??= this.readStore.collection<LocatorShareDoc>(collectionName(LOCATOR_SHARES_READ_MODEL), LOCATOR_SHARE_INDEXES);
    return this.collection;
  }
}
