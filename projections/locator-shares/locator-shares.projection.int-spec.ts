import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ShareDirectory, type LocatorShareDoc } from '../../libs/locator/src/index.js';
import { collectionName, EmbeddedReadStore, type RecordedEvent } from '../../libs/platform/src/index.js';
import { locatorSharesProjection } from './locator-shares.projection.js';

const STREAM = 'locator_share-aa';
let position = 0n;
const recorded = (type: string, data: Record<string, unknown>, stream = STREAM): RecordedEvent => {
  position += 1n;
  return { id: `event-${position}`, streamName: stream, type, data, metadata: { schema_version: 1 }, revision: position - 1n, position, createdAt: new Date() };
};
const issued = (shareId: string, owner: string, codeExpiresAt: string, stream = STREAM) =>
  recorded('LocatorShareCodeIssued', { share_id: shareId, owner_account_id: owner, issued_at: '2026-11-23T09:00:00.000Z', code_expires_at: codeExpiresAt, share_for_s: null, label: null }, stream);
const redeemed = (shareId: string, owner: string, viewer: string, expiresAt: string | null, stream = STREAM) =>
  recorded('LocatorShareCodeRedeemed', { share_id: shareId, owner_account_id: owner, viewer_account_id: viewer, paired_at: '2026-11-23T09:01:00.000Z', expires_at: expiresAt }, stream);

describe('locator_shares projection', () => {
  it('follows a share from code to pairing to revocation; a replayed event changes nothing', async () => {
    const store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'locator-shares-')));
    try {
      const collection = await store.collection<LocatorShareDoc>(collectionName(locatorSharesProjection), locatorSharesProjection.indexes);
      const directory = new ShareDirectory(store);
      const first = issued('shr_a', 'acct_o', '2026-11-23T09:10:00.000Z');
      await locatorSharesProjection.apply(first, collection);
      const stored = await collection.getStored('shr_a');
      await locatorSharesProjection.apply(first, collection);
      expect(await collection.getStored('shr_a')).toEqual(stored);
      expect(stored?.doc).toMatchObject({ status: 'issued', stream: STREAM, ends_at: '2026-11-23T09:10:00.000Z' });
      expect((await directory.liveCodes('acct_o', new Date('2026-11-23T09:09:59.000Z'), 10)).map((doc) => doc.id)).toEqual(['shr_a']);
      // The code drops out of the live list at its expiry, with nothing written.
      expect(await directory.liveCodes('acct_o', new Date('2026-11-23T09:10:00.000Z'), 10)).toEqual([]);

      const pairing = redeemed('shr_a', 'acct_o', 'acct_v', null);
      await locatorSharesProjection.apply(pairing, collection);
      await locatorSharesProjection.apply(pairing, collection);
      const later = new Date('2030-01-01T00:00:00.000Z');
      expect((await directory.viewersOf('acct_o', later, 10)).map((doc) => doc.viewer_account_id)).toEqual(['acct_v']);
      expect((await directory.watchedBy('acct_v', later, 10)).map((doc) => doc.owner_account_id)).toEqual(['acct_o']);
      expect((await directory.between('acct_o', 'acct_v', later)).map((doc) => doc.id)).toEqual(['shr_a']);
      expect(await directory.liveCodes('acct_o', new Date('2026-11-23T09:05:00.000Z'), 10)).toEqual([]);

      // A second pairing with an expiry, from another code: listed until it expires.
      await locatorSharesProjection.apply(issued('shr_b', 'acct_o', '2026-11-23T09:10:00.000Z', 'locator_share-bb'), collection);
      await locatorSharesProjection.apply(redeemed('shr_b', 'acct_o', 'acct_w', '2026-11-23T10:00:00.000Z', 'locator_share-bb'), collection);
      expect((await directory.viewersOf('acct_o', new Date('2026-11-23T09:59:59.000Z'), 10)).map((doc) => doc.id)).toEqual(['shr_b', 'shr_a']);
      expect((await directory.viewersOf('acct_o', new Date('2026-11-23T10:00:00.000Z'), 10)).map((doc) => doc.id)).toEqual(['shr_a']);

      const revoked = recorded('LocatorPairingRevoked', { share_id: 'shr_a', owner_account_id: 'acct_o', viewer_account_id: 'acct_v', revoked_by: 'owner', revoked_at: '2026-11-23T09:30:00.000Z' });
      await locatorSharesProjection.apply(revoked, collection);
      expect(await directory.viewersOf('acct_o', new Date('2026-11-23T09:31:00.000Z'), 10)).toMatchObject([{ id: 'shr_b' }]);
      expect(await directory.watchedBy('acct_v', new Date('2026-11-23T09:31:00.000Z'), 10)).toEqual([]);
      expect(await directory.byId('shr_a')).toMatchObject({ status: 'revoked', revoked_by: 'owner' });
      // A cancelled code leaves the live list at once.
      await locatorSharesProjection.apply(issued('shr_c', 'acct_o', '2026-11-23T09:50:00.000Z', 'locator_share-cc'), collection);
      await locatorSharesProjection.apply(recorded('LocatorShareCodeCancelled', { share_id: 'shr_c', owner_account_id: 'acct_o', cancelled_at: '2026-11-23T09:41:00.000Z' }, 'locator_share-cc'), collection);
      expect(await directory.liveCodes('acct_o', new Date('2026-11-23T09:42:00.000Z'), 10)).toEqual([]);
      expect(await directory.byId('shr_c')).toMatchObject({ status: 'cancelled' });
      // A replay of the redemption after the revocation cannot bring the pairing back.
      await locatorSharesProjection.apply(pairing, collection);
      expect(await directory.byId('shr_a')).toMatchObject({ status: 'revoked' });
    } finally {
      await store.close();
    }
  });
});
