import { InvalidParamError } from '../../../platform/src/errors.js';
import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { consentDecider, PROOF_REFERENCE, PROOF_REFERENCE_MAX, type ConsentCommand, type GrantConsent } from './consent.js';

/** docs/adr/0059: the capture values a receipt signs. */
const now = new Date('2026-11-22T08:00:00.000Z');
const { given, history } = deciderSpec(consentDecider);
const grant = (extra: Partial<GrantConsent> = {}): ConsentCommand => ({
  type: 'GrantConsent',
  account_id: 'acct_1',
  customer_id: 'cust-1',
  purpose: 'loan_collections',
  scope: ['location'],
  consent_id: 'cr_1',
  account_opened_at: '2026-10-01T00:00:00.000Z',
  captured_at: '2026-11-22T07:59:00.000Z',
  ...extra,
});

describe('consent capture values (docs/adr/0059)', () => {
  it('refuses a capture time before the account was opened (less 5 minutes of clock skew), naming captured_at', () => {
    for (const captured_at of ['1970-01-01T00:00:00.000Z', '2026-09-30T23:54:59.000Z']) {
      const { error } = given([]).when(grant({ captured_at }), now);
      expect(error).toBeInstanceOf(InvalidParamError);
      expect(error).toMatchObject({ field: 'captured_at', message: expect.stringContaining('before this account was opened') });
    }
    expect(given([]).when(grant({ captured_at: '2026-09-30T23:56:00.000Z' }), now).events).toHaveLength(1);
    // Without a known opening (a pipeline without accounts) only the future is bounded.
    expect(given([]).when(grant({ captured_at: '2020-01-01T00:00:00.000Z', account_opened_at: undefined }), now).events).toHaveLength(1);
  });

  it('does not store the account’s opening in the grant', () => {
    expect(given([]).when(grant(), now).events[0].data).not.toHaveProperty('account_opened_at');
  });

  it('refuses a repeat of a standing grant whose capture time is now out of bounds, rather than signing it again', () => {
    const standing = history([grant({ account_opened_at: undefined, captured_at: '1970-01-01T00:00:00.000Z' }), now]);
    expect(given(standing).when(grant({ captured_at: '1970-01-01T00:00:00.000Z' }), now).error).toMatchObject({ field: 'captured_at' });
  });

  it('takes proof references of printable ASCII, spaces inside only', () => {
    for (const reference of ['otp-7731-20261127', 'a', 'MEUCIQDx/+b64==', 'tx 42 ~!', '~'.repeat(PROOF_REFERENCE_MAX)]) {
      expect([reference.slice(0, 20), PROOF_REFERENCE.test(reference)]).toEqual([reference.slice(0, 20), true]);
      expect(given([]).when(grant({ proof: { kind: 'otp', reference } }), now).events).toHaveLength(1);
    }
  });

  it('refuses NUL, CR/LF, U+2028, other non-ASCII, edge spaces and over-long references, naming proof.reference', () => {
    for (const reference of ['otp\u0000', 'otp\r\nX-Injected: 1', 'otp\u2028line', 'otp-\u00e9', 'otp\t1', ' otp', 'otp ', '', 'x'.repeat(PROOF_REFERENCE_MAX + 1), 'otp\u007f']) {
      const { error } = given([]).when(grant({ proof: { kind: 'otp', reference } }), now);
      expect([JSON.stringify(reference.slice(0, 20)), error]).toEqual([JSON.stringify(reference.slice(0, 20)), expect.objectContaining({ field: 'proof.reference' })]);
    }
  });

  it('refuses an unresolved notice reference: the grant’s prepare resolves it first', () => {
    expect(given([]).when(grant({ notice_ref: { version: 'v1' } }), now).error).toEqual(new Error('a grant reached its decider with its notice unresolved (its prepare)'));
  });
});
