import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { AlreadyPairedError, LocatorLimitError, OwnShareCodeError, PairingNotFoundError, ShareCodeInvalidError, ShareCodeNotFoundError } from './errors.js';
import {
  isPairingActive,
  MAX_LIVE_CODES,
  MAX_VIEWERS,
  MAX_WATCHING,
  SHARE_CODE_TTL_S,
  shareDecider,
  ShareCodeCollisionError,
  type IssueShareCode,
  type RedeemShareCode,
  type RevokePairing,
  type ShareCommand,
} from './share.js';

const t0 = new Date('2026-11-23T09:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const { given, history } = deciderSpec(shareDecider, t0);

const issue = (overrides: Partial<IssueShareCode> = {}): IssueShareCode => ({
  type: 'IssueShareCode',
  share_id: 'shr_1',
  owner_account_id: 'acct_owner',
  code_digest: 'd1',
  share_for_s: null,
  label: 'Mum',
  live_codes: 0,
  ...overrides,
});
const redeem = (overrides: Partial<RedeemShareCode> = {}): RedeemShareCode => ({
  type: 'RedeemShareCode',
  code_digest: 'd1',
  viewer_account_id: 'acct_viewer',
  existing_pairing_id: null,
  owner_viewers: 0,
  viewer_watching: 0,
  ...overrides,
});
const revoke = (overrides: Partial<RevokePairing> = {}): RevokePairing => ({ type: 'RevokePairing', share_id: 'shr_1', actor_account_id: 'acct_owner', side: 'owner', ...overrides });
const steps = (...commands: Array<ShareCommand | [ShareCommand, Date]>) => history(...commands);

describe('share decider', () => {
  it('issues a code that can be redeemed for ten minutes, carrying the chosen pairing lifetime and label', () => {
    const { events, state } = given([]).when(issue({ share_for_s: 3600 }));
    expect(events).toEqual([
      {
        type: 'LocatorShareCodeIssued',
        data: { share_id: 'shr_1', owner_account_id: 'acct_owner', issued_at: t0.toISOString(), code_expires_at: at(SHARE_CODE_TTL_S).toISOString(), share_for_s: 3600, label: 'Mum' },
      },
    ]);
    expect(state.status).toBe('issued');
  });

  it(`refuses an owner's code beyond ${MAX_LIVE_CODES} live ones, and a digest minted twice`, () => {
    expect(given([]).when(issue({ live_codes: MAX_LIVE_CODES })).error).toMatchObject({ code: 'SHARE_CODE_LIMIT_REACHED', status: 409, details: { max: MAX_LIVE_CODES } });
    expect(given([]).when(issue({ live_codes: MAX_LIVE_CODES - 1 })).events).toHaveLength(1);
    expect(given(steps(issue())).when(issue()).error).toBeInstanceOf(ShareCodeCollisionError);
  });

  it('refuses a pairing lifetime outside 5 minutes to 30 days', () => {
    expect(given([]).when(issue({ share_for_s: 299 })).error).toMatchObject({ code: 'INVALID_PARAM', field: 'share_for_s' });
    expect(given([]).when(issue({ share_for_s: 30 * 86_400 + 1 })).error).toMatchObject({ code: 'INVALID_PARAM', field: 'share_for_s' });
  });

  it("pairs the redeemer's account with the owner; the pairing expires share_for_s after the redemption", () => {
    const { events, state } = given(steps(issue({ share_for_s: 3600 }))).when(redeem(), at(120));
    expect(events).toEqual([
      { type: 'LocatorShareCodeRedeemed', data: { share_id: 'shr_1', owner_account_id: 'acct_owner', viewer_account_id: 'acct_viewer', paired_at: at(120).toISOString(), expires_at: at(3720).toISOString() } },
    ]);
    expect(isPairingActive(state, at(3719))).toBe(true);
    expect(isPairingActive(state, at(3720))).toBe(false);
  });

  it('pairs until revoked when no lifetime was chosen', () => {
    const { state } = given(steps(issue())).when(redeem());
    expect(state).toMatchObject({ status: 'paired', pairing: { expires_at: null } });
    expect(isPairingActive(state, at(10 * 365 * 86_400))).toBe(true);
  });

  it('answers an unknown, a used and an expired code with the same error (no oracle)', () => {
    const unknown = given([]).when(redeem()).error;
    const used = given(steps(issue(), redeem())).when(redeem({ viewer_account_id: 'acct_other' })).error;
    const expired = given(steps(issue())).when(redeem(), at(SHARE_CODE_TTL_S)).error;
    const revoked = given(steps(issue(), redeem(), revoke())).when(redeem({ viewer_account_id: 'acct_other' })).error;
    for (const error of [unknown, used, expired, revoked]) {
      expect(error).toBeInstanceOf(ShareCodeInvalidError);
      expect(error).toEqual(unknown);
      expect((error as Error).message).toBe((unknown as Error).message);
    }
    // One second before its expiry the code still works.
    expect(given(steps(issue())).when(redeem(), at(SHARE_CODE_TTL_S - 1)).events).toHaveLength(1);
  });

  it("refuses the owner's own code, and a viewer who already sees the owner (the code stays unused)", () => {
    expect(given(steps(issue())).when(redeem({ viewer_account_id: 'acct_owner' })).error).toBeInstanceOf(OwnShareCodeError);
    const already = given(steps(issue())).when(redeem({ existing_pairing_id: 'shr_0' }));
    expect(already.error).toBeInstanceOf(AlreadyPairedError);
    expect(already.error).toMatchObject({ code: 'ALREADY_PAIRED', details: { pairing_id: 'shr_0' } });
    expect(already.state.status).toBe('issued');
  });

  it(`caps viewers per owner at ${MAX_VIEWERS} and targets per viewer at ${MAX_WATCHING}`, () => {
    expect(given(steps(issue())).when(redeem({ owner_viewers: MAX_VIEWERS })).error).toMatchObject({ code: 'VIEWER_LIMIT_REACHED' });
    expect(given(steps(issue())).when(redeem({ viewer_watching: MAX_WATCHING })).error).toMatchObject({ code: 'WATCHING_LIMIT_REACHED' });
    expect(given(steps(issue())).when(redeem({ owner_viewers: MAX_VIEWERS - 1, viewer_watching: MAX_WATCHING - 1 })).error).toBeUndefined();
    expect(given(steps(issue())).when(redeem({ owner_viewers: MAX_VIEWERS })).error).toBeInstanceOf(LocatorLimitError);
  });

  it('lets the owner revoke the pairing, and the viewer end it from their side', () => {
    const paired = steps(issue(), redeem());
    const byOwner = given(paired).when(revoke(), at(60));
    expect(byOwner.events).toEqual([
      { type: 'LocatorPairingRevoked', data: { share_id: 'shr_1', owner_account_id: 'acct_owner', viewer_account_id: 'acct_viewer', revoked_by: 'owner', revoked_at: at(60).toISOString() } },
    ]);
    expect(isPairingActive(byOwner.state, at(61))).toBe(false);
    expect(given(paired).when(revoke({ actor_account_id: 'acct_viewer', side: 'viewer' })).events[0]).toMatchObject({ data: { revoked_by: 'viewer' } });
  });

  it('answers PAIRING_NOT_FOUND for another person, the wrong side, a second revocation, an expired pairing and an unredeemed code', () => {
    const paired = steps(issue({ share_for_s: 600 }), redeem());
    const cases = [
      given(paired).when(revoke({ actor_account_id: 'acct_stranger' })),
      given(paired).when(revoke({ actor_account_id: 'acct_viewer', side: 'owner' })),
      given(paired).when(revoke({ actor_account_id: 'acct_owner', side: 'viewer' })),
      given([...paired, ...given(paired).when(revoke()).events]).when(revoke()),
      given(paired).when(revoke(), at(600)),
      given(steps(issue())).when(revoke()),
      given(paired).when(revoke({ share_id: 'shr_2' })),
    ];
    for (const { error } of cases) expect(error).toBeInstanceOf(PairingNotFoundError);
  });

  it('lets the owner cancel a live code, which then answers like any invalid code', () => {
    const cancel = { type: 'CancelShareCode', share_id: 'shr_1', actor_account_id: 'acct_owner' } as const;
    const { events, state } = given(steps(issue())).when(cancel, at(30));
    expect(events).toEqual([{ type: 'LocatorShareCodeCancelled', data: { share_id: 'shr_1', owner_account_id: 'acct_owner', cancelled_at: at(30).toISOString() } }]);
    expect(state.status).toBe('cancelled');
    expect(given([...steps(issue()), ...events]).when(redeem()).error).toBeInstanceOf(ShareCodeInvalidError);
    for (const { error } of [
      given(steps(issue())).when({ ...cancel, actor_account_id: 'acct_viewer' }),
      given(steps(issue(), redeem())).when(cancel),
      given(steps(issue())).when(cancel, at(SHARE_CODE_TTL_S)),
      given([...steps(issue()), ...events]).when(cancel),
      given([]).when(cancel),
    ]) {
      expect(error).toBeInstanceOf(ShareCodeNotFoundError);
    }
  });
});
