import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { accountOf, data, signUp } from './support/http.js';

/**
 * Issue 31, item 3: writes are fair across tenants, and a write that was
 * stored does not answer 504 as if it were not.
 */
describe('fair writes', () => {
  let service: Service;
  beforeAll(async () => {
    service = await bootService();
  }, 30_000);
  afterAll(async () => {
    await service?.close();
  });

  const lender = async (name: string) => {
    const key = await signUp(service, name);
    const account = await accountOf(service, key);
    await service.request('POST', `/v2/admin/accounts/${account}/banking`, { key: ADMIN_KEY, body: { enabled: true } });
    // A bulk call counts its items against the quota (ADR 34): 10,000 loans need the enterprise allowance.
    await service.request('PUT', `/v2/admin/accounts/${account}/tier`, { key: ADMIN_KEY, body: { tier: 'enterprise' } });
    return key;
  };
  const loans = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ loan_id: `${prefix}${i}`, customer_id: `c${i}`, zone: { type: 'hex', code: '6Q3-HQK-Q4ZA' } }));

  // Both answered 504 in the run although every loan was stored.
  it('answers two concurrent 10,000-loan bulk registrations with their outcomes, not 504', async () => {
    const [a, b] = await Promise.all([lender('BulkA'), lender('BulkB')]);
    const started = performance.now();
    const answers = await Promise.all([
      service.request('POST', '/v2/collections/bulk-register', { key: a, body: { loans: loans('a', 10_000) } }),
      service.request('POST', '/v2/collections/bulk-register', { key: b, body: { loans: loans('b', 10_000) } }),
    ]);
    const bodies = await Promise.all(answers.map(async (answer) => ({ status: answer.status, body: (await answer.json()) as { data?: { created: number }; error?: { code: string } } })));
    process.stdout.write(`two bulk registrations: ${bodies.map((b) => b.status).join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    expect(bodies.map((answer) => [answer.status, answer.body.data?.created ?? answer.body.error?.code])).toEqual([
      [200, 10_000],
      [200, 10_000],
    ]);
  }, 180_000);

  // No tenant's backlog holds another's write until it is through: a single registration made while another
  // tenant's 10,000 are being stored answers (read-your-write included) before that bulk registration does.
  it("answers one tenant's single registration while another tenant's bulk registration is still being stored", async () => {
    const [big, small] = await Promise.all([lender('BigLender'), lender('SmallLender')]);
    let bulkAnswered = false;
    const bulk = service.request('POST', '/v2/collections/bulk-register', { key: big, body: { loans: loans('big', 10_000) } }).then(async (answer) => {
      bulkAnswered = true;
      return answer.status;
    });
    // Once the bulk registration is well under way: its loans are in the read model.
    await eventually(async () => ((await data<{ loans_assessed: number }>(await service.request('POST', '/v2/analytics/portfolio-risk', { key: big, body: {} }))).loans_assessed >= 500 ? true : undefined), 60_000);
    const single = await service.request('POST', '/v2/collections/register', { key: small, body: { loan_id: 'one', customer_id: 'c1', zone: { type: 'hex', code: '6Q3-HQK-Q4ZA' } } });
    const answeredFirst = !bulkAnswered;
    expect(single.status).toBe(200);
    expect(answeredFirst).toBe(true);
    expect(await bulk).toBe(200);
  }, 180_000);
});
