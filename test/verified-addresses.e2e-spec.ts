import { latLngToCell } from 'h3-js';
import { hexCodeFromCell } from '../libs/addressing/src/index.js';
import { ADMIN_KEY, bootService, type Service } from './support/boot.js';
import { accountOf, data, json, signUp } from './support/http.js';

// Issue 52 (docs/adr/0066): banking no longer reads identity's verification stream; a re-verification scheduled
// by customer, without an address, takes the address of the customer's latest KYC verification through identity's
// VERIFIED_ADDRESSES port, and answers 400 ADDRESS_REQUIRED when there is none.
describe('a re-verification by customer takes the latest verified address through identity\'s port', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService();
  }, 60_000);
  afterAll(async () => {
    if (service) await service.close().catch(() => undefined);
  });

  it('schedules at the address the latest KYC verified, and refuses a customer never verified', async () => {
    const key = await signUp(service, 'Verified');
    const accountId = await accountOf(service, key);
    expect((await service.request('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
    const customer = 'verified-1';
    expect((await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: customer, purpose: 'loan_collections' } })).status).toBe(200);
    const [first, latest] = [5.6037, 5.6237].map((lat) => hexCodeFromCell(latLngToCell(lat, -0.187, 13)));
    for (const address of [first, latest]) {
      expect((await service.request('POST', '/v2/kyc/verify', { key, body: { customer_id: customer, address, positions: [], use_recorded_pings: false } })).status).toBe(200);
    }

    const scheduled = await data<{ customer_id: string; address: string }>(await service.request('POST', '/v2/verify/schedule', { key, body: { customer_id: customer, every_days: 30 } }));
    expect(scheduled).toMatchObject({ customer_id: customer, address: latest });

    const refused = await service.request('POST', '/v2/verify/schedule', { key, body: { customer_id: 'never-verified', every_days: 30 } });
    expect(refused.status).toBe(400);
    expect((await json<{ error: { code: string } }>(refused)).error.code).toBe('ADDRESS_REQUIRED');
  });
});
