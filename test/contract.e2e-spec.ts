import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ADMIN_KEY, bootService, type Service } from './support/boot.js';
import { checkAnswer, ContractChecker, ContractMismatchError } from './support/contract.js';

/** The contract check every e2e request runs (test/support/contract.ts) must be able to fail. */
describe('answers are checked against the served OpenAPI document', () => {
  let service: Service;
  let checker: ContractChecker;

  beforeAll(async () => {
    service = await bootService();
    checker = new ContractChecker((await (await fetch(`${service.url}/v2/openapi.json`)).json()) as ConstructorParameters<typeof ContractChecker>[0]);
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  const reverse = async () => {
    const response = await service.request('GET', '/v2/reverse?lat=5.55&lng=-0.2', { key: ADMIN_KEY });
    return { status: response.status, body: (await response.json()) as { success: boolean; data: Record<string, unknown> } };
  };

  it('accepts a real answer as it is', async () => {
    const { status, body } = await reverse();
    expect(status).toBe(200);
    expect(checker.mismatch('GET', '/v2/reverse?lat=5.55&lng=-0.2', status, 'application/json', JSON.stringify(body))).toBeUndefined();
  });

  it('names a field of the wrong type', async () => {
    const { status, body } = await reverse();
    const wrong = { ...body, data: { ...body.data, lat: 'five' } };
    expect(checker.mismatch('GET', '/v2/reverse', status, 'application/json', JSON.stringify(wrong))).toMatch(/\/data\/lat must be number/);
  });

  it('names a field the document does not describe', async () => {
    const { status, body } = await reverse();
    const extra = { ...body, data: { ...body.data, postcode: 'GA-123' } };
    expect(checker.mismatch('GET', '/v2/reverse', status, 'application/json', JSON.stringify(extra))).toMatch(/additional properties \(postcode\)/);
  });

  it('refuses a status the operation does not list, and an error code its status does not name', () => {
    expect(checker.mismatch('GET', '/v2/reverse', 418, 'application/json', '{}')).toMatch(/a status the document does not list/);
    const unnamed = JSON.stringify({ success: false, error: { code: 'SOMETHING_ELSE', message: 'x' } });
    expect(checker.mismatch('GET', '/v2/reverse', 400, 'application/json', unnamed)).toMatch(/\/error\/code must be equal to one of the allowed values/);
  });

  it('fails the request on an error answer the document does not describe, as on a 2xx', async () => {
    const unnamed = new Response(JSON.stringify({ success: false, error: { code: 'SOMETHING_ELSE', message: 'x' } }), { status: 400, headers: { 'content-type': 'application/json' } });
    await expect(checkAnswer(checker, 'GET', '/v2/reverse', unnamed)).rejects.toThrow(ContractMismatchError);
    const named = new Response(JSON.stringify({ success: false, error: { code: 'INVALID_PARAM', message: 'lat must be a number', field: 'lat' } }), { status: 400, headers: { 'content-type': 'application/json' } });
    await expect(checkAnswer(checker, 'GET', '/v2/reverse', named)).resolves.toBe(named);
  });
});
