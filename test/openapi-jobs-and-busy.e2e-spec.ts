import { bootService, type Service } from './support/boot.js';

/**
 * The served OpenAPI document says what the code does at the edges issue 48
 * added: the sizes bulk hex coding answers at once and as a job, the 202 job
 * answers, 410 JOB_RESULT_ERASED for a customer's copy kept past an erasure
 * (docs/adr/0068), and the 503s with Retry-After that the overload edge and
 * each heavy request's thread pool answer.
 */

interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: { allOf?: Array<{ properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }> } }>;
}
interface Operation {
  requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> };
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, { maxItems?: number; minItems?: number; description?: string }> }> };
}

/** The error codes a documented error answer allows (its `error.code` enum). */
const codesOf = (response: Response | undefined) => response?.content?.['application/json']?.schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum ?? [];

describe('the OpenAPI document at the edges of issue 48', () => {
  let service: Service;
  let document: Document;
  beforeAll(async () => {
    service = await bootService();
    document = (await (await service.request('GET', '/v2/openapi.json')).json()) as Document;
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  const operation = (method: string, path: string) => {
    const found = document.paths[path]?.[method];
    if (!found) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
    return found;
  };

  it('bulk hex coding: 1 to 50,000 items, up to 10,000 answered at once and above that a job (202)', () => {
    const bulk = operation('post', '/v2/hexcode/bulk');
    const ref = bulk.requestBody?.content?.['application/json']?.schema?.$ref ?? '';
    const items = document.components.schemas[ref.split('/').at(-1)!]?.properties?.items;
    expect(items).toMatchObject({ minItems: 1, maxItems: 50_000 });
    expect(items?.description).toMatch(/Up to 10000 are answered at once \(200\); 10001 to 50000 with an account key run as a job \(202/);
    expect(Object.keys(bulk.responses)).toEqual(expect.arrayContaining(['200', '202', '400', '503']));
    expect(codesOf(bulk.responses['503'])).toEqual(expect.arrayContaining(['HEXCODE_BUSY', 'SERVICE_BUSY', 'SERVICE_UNAVAILABLE']));
  });

  it('names each heavy pool’s 503 where it applies, and every operation’s overload 503, with Retry-After', () => {
    const pools: Array<[string, string, string]> = [
      ['post', '/v2/analytics/portfolio-risk', 'PORTFOLIO_BUSY'],
      ['post', '/v2/hexcode/bulk', 'HEXCODE_BUSY'],
      ['post', '/v2/service-area', 'SERVICE_AREA_BUSY'],
      ['post', '/v2/geofence/create', 'ISOCHRONE_BUSY'],
      ['post', '/v2/route/transit', 'TRANSIT_BUSY'],
    ];
    for (const [method, path, code] of pools) {
      const busy = operation(method, path).responses['503'];
      expect({ path, codes: codesOf(busy) }).toEqual({ path, codes: expect.arrayContaining([code, 'SERVICE_BUSY']) });
      expect(busy.headers).toHaveProperty('Retry-After');
    }
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, value] of Object.entries(methods)) {
        if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
        const shed = value.responses['503'];
        expect({ operation: `${method} ${path}`, codes: codesOf(shed), retryAfter: Boolean(shed?.headers?.['Retry-After']) }).toEqual({
          operation: `${method} ${path}`,
          codes: expect.arrayContaining(['SERVICE_BUSY']),
          retryAfter: true,
        });
      }
    }
  });

  it("the customer's copy answers a job (202), and a job whose customer was erased answers 410 JOB_RESULT_ERASED", () => {
    const copy = operation('post', '/v2/consent/access-request');
    expect(copy.responses['202']?.description).toMatch(/customer\.copy/);
    expect(copy.responses['200']).toBeDefined();
    for (const path of ['/v2/jobs/{id}', '/v2/jobs/{id}/result']) expect(codesOf(operation('get', path).responses['410'])).toEqual(['JOB_RESULT_ERASED']);
  });
});
