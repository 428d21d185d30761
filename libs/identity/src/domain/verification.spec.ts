import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { summarizeFraudCheck } from './fraud.js';
import { verificationDecider, verificationStream, type AddressVerified, type ProximityVerified } from './verification.js';

const signals = { customer_hash: 'c', device_hash: null, ip_hash: 'i', phone_hash: null, email_hash: null };
const provenance = { source: 'device_gps' as const, provider: 'caller', accuracy_meters: 10, confidence: 0.68, verified_at: '2026-11-23T10:00:00.000Z' };
const address = { input: '6Q3-HQK-Q4ZA', code: '6Q3HQKQ4ZA', input_kind: 'hex_code' as const, precision: 'cell' as const, label: null, lat: 5.6, lng: -0.19, accuracy_m: 4 };

function proximity(id: string): ProximityVerified['data'] {
  return {
    verification_id: id,
    account_id: 'acct_a',
    customer_id: 'cust-1',
    subject: 'sub_x',
    address,
    device: { lat: 5.6, lng: -0.19, accuracy_m: 10, recorded_at: '2026-11-23T09:59:00.000Z' },
    decision: 'within',
    distance_m: 12.5,
    radius_m: 100,
    reasons: ['within_radius'],
    provenance,
    fraud_check: summarizeFraudCheck({}),
    signals,
    certificate: { jti: id, kid: 'k1', token: 'h.p.s', iat: 1, exp: 2 },
    verified_at: '2026-11-23T10:00:00.000Z',
  };
}

function kyc(id: string): AddressVerified['data'] {
  return {
    verification_id: id,
    account_id: 'acct_a',
    customer_id: 'cust-1',
    address,
    result: 'insufficient_evidence',
    score: null,
    radius_m: 100,
    reasons: [{ code: 'too_few_positions', message: '…' }],
    evidence: { from_request: 1, from_recorded_pings: 0, recorded_pings: 'no_consent', usable: 1, in_zone: 1, share_in_zone: 1, days_observed: 1, nights_observed: 0, nights_at_home: 0 },
    positions: [{ lat: 5.6, lng: -0.19, accuracy_m: null, recorded_at: '2026-11-23T09:00:00.000Z' }],
    provenance,
    fraud_check: summarizeFraudCheck({}),
    signals,
    verified_at: '2026-11-23T10:00:00.000Z',
  };
}

const spec = deciderSpec(verificationDecider);

describe('verification decider', () => {
  it('one stream per (account, customer)', () => {
    expect(verificationStream('acct_a', 'cust:1')).toBe('identity_verification-acct_a:cust:1');
  });

  it('records a prepared proximity verification and a KYC verification as they were worked out', () => {
    expect(spec.given([]).when({ type: 'RecordProximityVerification', verification_id: 'v1', verification: proximity('v1') }).events).toEqual([{ type: 'ProximityVerified', data: proximity('v1') }]);
    const history = spec.history({ type: 'RecordProximityVerification', verification_id: 'v1', verification: proximity('v1') });
    const { events, state } = spec.given(history).when({ type: 'RecordAddressVerification', verification_id: 'v2', verification: kyc('v2') });
    expect(events).toEqual([{ type: 'AddressVerified', data: kyc('v2') }]);
    expect(state).toEqual({ verifications: 2, last_verified_at: '2026-11-23T10:00:00.000Z', recent_ids: ['v1', 'v2'] });
  });

  it('a verification already recorded (a retry after its append went through) records nothing', () => {
    const history = spec.history({ type: 'RecordProximityVerification', verification_id: 'v1', verification: proximity('v1') });
    expect(spec.given(history).when({ type: 'RecordProximityVerification', verification_id: 'v1', verification: proximity('v1') }).events).toEqual([]);
  });

  it('refuses a command that was not prepared, or prepared for another verification', () => {
    expect(spec.given([]).when({ type: 'RecordProximityVerification', verification_id: 'v1' }).error).toEqual(new Error('RecordProximityVerification was not prepared'));
    expect(spec.given([]).when({ type: 'RecordAddressVerification', verification_id: 'v1', verification: kyc('v2') }).error).toBeInstanceOf(Error);
  });
});
