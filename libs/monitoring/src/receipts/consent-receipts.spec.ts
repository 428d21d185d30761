import { CONSENT_RECEIPT_TYP, type ReceiptEvent } from '../domain/consent-receipt.js';
import type { ConsentState } from '../domain/consent.js';
import type { ConsentReceiptSigner } from '../public/consent-receipts.port.js';
import { ConsentReceipts } from './consent-receipts.js';

const granted: Extract<ConsentState, { status: 'granted' }> = {
  status: 'granted',
  purpose: 'loan_collections',
  scope: ['location'],
  granted_at: '2026-12-01T09:00:00.000Z',
  consent_id: 'cr_0123456789abcdef0123456789abcdef',
};

/** Records what it was asked to sign and answers a token naming it. */
function recordingSigner(issuer: string): ConsentReceiptSigner & { signed: Array<{ claims: Record<string, unknown>; typ: string }> } {
  const signed: Array<{ claims: Record<string, unknown>; typ: string }> = [];
  return {
    issuer,
    signed,
    async sign(claims, typ) {
      signed.push({ claims: claims as Record<string, unknown>, typ });
      return { token: `signed:${String((claims as { jti: string }).jti)}`, kid: 'k-1' };
    },
  };
}

describe('ConsentReceipts', () => {
  const input = (event: ReceiptEvent) => ({ accountId: 'acct_1', customerId: 'cust-1', state: granted, event });

  it('signs the event’s claims with the bound signer and names the JWKS under its issuer', async () => {
    const signer = recordingSigner('https://api.example.test/');
    const receipts = new ConsentReceipts(signer);
    expect(receipts.signs).toBe(true);
    expect(await receipts.issue(input('granted'))).toEqual({
      token: `signed:${granted.consent_id}.granted`,
      kid: 'k-1',
      typ: CONSENT_RECEIPT_TYP,
      jwks_url: 'https://api.example.test/v2/.well-known/jwks.json',
    });
    expect(signer.signed).toEqual([{ typ: CONSENT_RECEIPT_TYP, claims: expect.objectContaining({ iss: 'https://api.example.test/', consentReceiptID: granted.consent_id, receipt_event: 'granted', piiPrincipalId: 'cust-1' }) }]);
  });

  it('answers null, signing nothing, in a process with no signer bound (no identity context)', async () => {
    const receipts = new ConsentReceipts(null);
    expect(receipts.signs).toBe(false);
    expect(await receipts.issue(input('granted'))).toBeNull();
  });
});
