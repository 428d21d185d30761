import { ADMIN_KEY, bootService, type Service } from './support/boot.js';
import { accountOf, data, json, signUp } from './support/http.js';

interface Failure {
  success: false;
  error: { code: string; message: string; field?: string; details?: { unknown?: string; accepted?: string[]; use?: string | null } };
}

/**
 * Issue 28, item 6: one vocabulary, and errors that teach (docs/adr/0036). A
 * property the request does not take is refused naming the properties it
 * does take and, where one is plainly meant, that one; where a common shape
 * says the same thing unambiguously (a circle zone without `type`), it is taken.
 */
describe('one vocabulary and errors that teach', () => {
  let service: Service;
  let key: string;

  beforeAll(async () => {
    service = await bootService();
    key = await signUp(service, 'Vocab');
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  it('names the field to use and the accepted ones when a query property is unknown', async () => {
    const response = await service.request('GET', '/v2/lookup?address_code=6Q3-HQK-Q4ZA', { key });
    expect(response.status).toBe(400);
    const body = await json<Failure>(response);
    expect(body.error).toMatchObject({ code: 'INVALID_PARAM', field: 'address_code', details: { unknown: 'address_code', accepted: ['address'], use: 'address' } });
    expect(body.error.message).toBe('address_code is not a property of this request (use address); accepted: address');
    expect(body.error.message).not.toMatch(/should not exist/);

    const reverse = await json<Failure>(await service.request('GET', '/v2/reverse?latitude=5.6&lng=-0.18', { key }));
    expect(reverse.error.details).toMatchObject({ use: 'lat', accepted: expect.arrayContaining(['lat', 'lng', 'resolution', 'source', 'accuracy_m']) });
    // camelCase is our snake_case.
    const camel = await json<Failure>(await service.request('GET', '/v2/reverse?lat=5.6&lng=-0.18&accuracyM=5', { key }));
    expect(camel.error.details?.use).toBe('accuracy_m');
    // Nothing close: the accepted list alone.
    const far = await json<Failure>(await service.request('GET', '/v2/reverse?lat=5.6&lng=-0.18&colour=red', { key }));
    expect(far.error).toMatchObject({ field: 'colour', details: { use: null } });
    expect(far.error.message).toMatch(/^colour is not a property of this request; accepted: lat, lng, /);
  });

  it('does the same for a body property', async () => {
    const parse = await json<Failure>(await service.request('POST', '/v2/address/parse', { key, body: { text: 'GA-123-4567', source: 'sms' } }));
    expect(parse.error).toMatchObject({ code: 'INVALID_PARAM', field: 'source', details: { accepted: ['text'], use: null } });
    const kyc = await service.request('POST', '/v2/kyc/verify', { key, body: { customer_id: 'c-1', address_code: '6Q3-HQK-Q4ZA' } });
    expect(kyc.status).toBe(400);
    expect((await json<Failure>(kyc)).error).toMatchObject({ field: 'address_code', details: { use: 'address', accepted: expect.arrayContaining(['address', 'customer_id']) } });
  });

  it('tells a bulk item that names its code otherwise to use code', async () => {
    const response = await service.request('POST', '/v2/hexcode/bulk', { key, body: { items: [{ address: '6Q3-HQK-Q4ZA' }, { lat: 5.6, lng: -0.18, radius: 3 }] } });
    expect(response.status).toBe(200);
    const { items } = await data<{ items: Array<{ error?: { message: string; field: string } }> }>(response);
    expect(items[0].error).toMatchObject({ field: 'items[0].address', message: 'a code to decode is {code}, not {address}' });
    expect(items[1].error).toMatchObject({ field: 'items[1].radius', message: 'radius is not a property of a point item; accepted: lat, lng, resolution, id' });
  });

  it('takes a circle zone as {lat, lng, radius_m} without type, and says which shapes exist otherwise', async () => {
    const lender = await signUp(service, 'VocabLender');
    expect((await service.request('POST', `/v2/admin/accounts/${await accountOf(service, lender)}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
    const register = (zone: unknown) => service.request('POST', '/v2/collections/register', { key: lender, body: { loan_id: `loan-${Math.random().toString(36).slice(2)}`, customer_id: 'cust-v', zone } });
    const circle = await register({ lat: 5.5497, lng: -0.2107, radius_m: 300 });
    expect(circle.status).toBe(200);
    expect(await data(circle)).toMatchObject({ outcome: 'created', zone: { type: 'point', lat: 5.5497, lng: -0.2107, radius_m: 300 } });
    expect(await data(await register({ code: '6Q3-HQK-Q4ZA' }))).toMatchObject({ zone: { type: 'hex', code: '6Q3-HQK-Q4ZA' } });
    const ring = [[-0.22, 5.54], [-0.2, 5.54], [-0.2, 5.56], [-0.22, 5.56], [-0.22, 5.54]];
    expect(await data(await register({ type: 'Polygon', coordinates: [ring] }))).toMatchObject({ zone: { type: 'polygon' } });

    const circleTyped = await json<Failure>(await register({ type: 'circle', lat: 5.5, lng: -0.2, radius_m: 300 }));
    expect(circleTyped.error).toMatchObject({ field: 'zone.type', message: expect.stringMatching(/a circle is \{lat, lng, radius_m\}.*type may be left out/) });
    const radius = await json<Failure>(await register({ lat: 5.5, lng: -0.2, radius: 300 }));
    expect(radius.error).toMatchObject({ field: 'zone.radius', message: expect.stringMatching(/\(use radius_m\); accepted: type, lat, lng, radius_m/) });
  });
});
