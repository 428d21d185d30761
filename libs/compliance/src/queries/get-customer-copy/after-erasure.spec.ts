import { consentsAfterErasure, verificationsAfterErasure } from './after-erasure.js';

describe("the customer's copy after erasure (issue 47)", () => {
  const grant = {
    type: 'ConsentGranted',
    at: '2026-11-22T09:00:00.000Z',
    receipt: { token: 'eyJ...' },
    data: { account_id: 'acct_1', customer_id: 'c1', purpose: 'loan_collections', scope: ['location'], granted_at: '2026-11-22T09:00:00.000Z', consent_id: 'cr_1', notice: { version: 'v1', sha256: 'ab', language: 'tw' }, channel: 'app', captured_at: '2026-11-22T08:59:00.000Z', proof: { kind: 'otp', reference: 'otp-1' } },
  };
  const revoke = { type: 'ConsentRevoked', at: '2026-11-23T09:00:00.000Z', receipt: null, data: { account_id: 'acct_1', customer_id: 'c1', revoked_at: '2026-11-23T09:00:00.000Z' } };
  const erased = { type: 'CustomerDataErased', at: '2026-11-23T09:05:00.000Z', receipt: null, data: { account_id: 'acct_1', customer_id: 'c1', erased_at: '2026-11-23T09:05:00.000Z', erased_by: 'lk_1', events_erased: 3 } };
  const sealed = {
    type: 'ConsentRecordSealed',
    at: '2026-11-23T08:00:00.000Z',
    receipt: null,
    data: { sealed_at: '2026-11-23T08:00:00.000Z', record: { consent_id: 'cr_legacy_1', purpose: 'fleet_dispatch', scope: ['location'], granted_at: 'g', revoked_at: null, erased_at: null, notice: { version: 'v' } } },
  };
  const regrant = { ...grant, at: '2026-11-24T09:00:00.000Z', data: { ...grant.data, granted_at: '2026-11-24T09:00:00.000Z', consent_id: 'cr_2' } };

  it('keeps the consent facts up to the last erasure and every later event whole', () => {
    expect(consentsAfterErasure([grant, sealed, revoke, erased, regrant])).toEqual([
      { type: 'ConsentGranted', at: grant.at, receipt: null, data: { purpose: 'loan_collections', scope: ['location'], granted_at: grant.at } },
      { type: 'ConsentRecordSealed', at: sealed.at, receipt: null, data: { sealed_at: sealed.at, record: { purpose: 'fleet_dispatch', scope: ['location'], granted_at: 'g', revoked_at: null, erased_at: null } } },
      { type: 'ConsentRevoked', at: revoke.at, receipt: null, data: { revoked_at: revoke.at } },
      { type: 'CustomerDataErased', at: erased.at, receipt: null, data: { erased_at: erased.at, erased_by: 'lk_1', events_erased: 3 } },
      regrant,
    ]);
    // No erasure in the history: nothing is withheld.
    expect(consentsAfterErasure([grant, revoke])).toEqual([grant, revoke]);
  });

  it('shows a verification made before the erasure as its decision and its certificate ids, never where anyone was', () => {
    const kyc = {
      type: 'AddressVerified',
      verification_id: 'vrf_1',
      customer_id: 'c1',
      address: { code: '6Q3-HQK-Q4ZA' },
      result: 'verified',
      decision: 'likely',
      score: 0.8,
      reasons: ['consistent_presence'],
      positions: [{ lat: 5.6, lng: -0.18 }],
      evidence: { nights: 3 },
      fraud_check: { velocity: { from: { lat: 6.6, lng: -1.6 } } },
      signals: { customer_hash: 'h' },
      certificate: { jti: 'j1', kid: 'k1', token: 'eyJ.claims.sig', iat: 1, exp: 2 },
      verified_at: '2026-11-22T10:00:00.000Z',
    };
    const proximity = { type: 'ProximityVerified', verification_id: 'vrf_2', device: { lat: 5.6, lng: -0.18 }, decision: 'within', certificate: null, verified_at: '2026-11-22T11:00:00.000Z' };
    const later = { ...proximity, verification_id: 'vrf_3', verified_at: '2026-11-24T11:00:00.000Z' };
    expect(verificationsAfterErasure([kyc, proximity, later], '2026-11-23T09:05:00.000Z')).toEqual([
      { type: 'AddressVerified', verification_id: 'vrf_1', result: 'verified', decision: 'likely', score: 0.8, reasons: ['consistent_presence'], verified_at: kyc.verified_at, certificate: { jti: 'j1', kid: 'k1', iat: 1, exp: 2 } },
      { type: 'ProximityVerified', verification_id: 'vrf_2', decision: 'within', verified_at: proximity.verified_at, certificate: null },
      later,
    ]);
  });
});
