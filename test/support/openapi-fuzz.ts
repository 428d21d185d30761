/**
 * Malformed requests for every operation of the OpenAPI document
 * (test/fuzz.e2e-spec.ts). Everything is drawn from a seeded generator, so a
 * run sends the same requests every time and a failure can be replayed. No
 * test-runner globals here.
 */

interface Schema {
  type?: string;
  enum?: unknown[];
  example?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  $ref?: string;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: Schema;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> }; security?: unknown[] }>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface Operation {
  method: string;
  /** The path template, `{name}` for parameters. */
  path: string;
  pathParameters: string[];
  query: Array<{ name: string; type?: string }>;
  /** Request headers the operation declares (e.g. Range on a tile archive). */
  headers: string[];
  /** Properties of the JSON body, when the document declares one. */
  body?: Record<string, Schema>;
  secured: boolean;
}

export interface FuzzCase {
  operation: Operation;
  /** What the case does, for the failure report. */
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

const PLACEHOLDER = 'fuzz-1';
const METHODS_WITH_BODY = new Set(['post', 'put', 'patch', 'delete']);

/** The HTTP methods an OpenAPI path item may hold (its other members, `parameters`, `summary`…, are not operations). */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** `METHOD /path` of every operation of the document, read from it directly: what the fuzzing must cover. */
export function operationKeysOf(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) => HTTP_METHODS.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`));
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const schemas = document.components?.schemas ?? {};
  const resolve = (schema: Schema | undefined): Schema | undefined => (schema?.$ref ? schemas[schema.$ref.split('/').pop() ?? ''] : schema);
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!(HTTP_METHODS as readonly string[]).includes(method)) continue;
      const parameters = operation.parameters ?? [];
      const bodySchema = resolve(operation.requestBody?.content?.['application/json']?.schema);
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParameters: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        query: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => ({ name: parameter.name, type: parameter.schema?.type })),
        headers: parameters.filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name),
        body: bodySchema ? Object.fromEntries(Object.entries(bodySchema.properties ?? {}).map(([name, schema]) => [name, resolve(schema) ?? {}])) : undefined,
        secured: (operation.security ?? []).length > 0,
      });
    }
  }
  return operations;
}

/** A value the schema would take, so that a case breaks one thing at a time. */
function plausible(schema: Schema): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [plausible(schema.items ?? { type: 'string' })];
    case 'object':
      return {};
    default:
      return PLACEHOLDER;
  }
}

/** JSON texts of wrong or hostile values for one field; `\ud800` stays an escape, so JSON.parse makes the lone surrogate. */
const HOSTILE_VALUES: string[] = [
  'null',
  'true',
  '0',
  '-1',
  '1e309',
  '-0',
  '12345678901234567890123',
  '0.1e-400',
  '""',
  '"   "',
  '"\\u0000"',
  '"\\ud800"',
  '"x\\udfffy"',
  '"\\ud83d\\ude00"',
  '"%zz"',
  '"<script>alert(1)</script>"',
  '"1; DROP TABLE x"',
  '"2026-02-30T25:61:00Z"',
  '"NaN"',
  '[]',
  '[null]',
  '["\\ud800"]',
  '{}',
  '{"lat":"x","lng":[]}',
  '{"__proto__":{"polluted":true}}',
  '{"type":"Polygon","coordinates":[[[0,0],[0,0],[0,0]]]}',
  '{"type":"Polygon","coordinates":[[["a",null]]]}',
  `"${'x'.repeat(100_000)}"`,
  `[${'0,'.repeat(19_999)}0]`,
  `[${'{},'.repeat(2_999)}{}]`,
  `${'['.repeat(31)}0${']'.repeat(31)}`,
  `${'['.repeat(40)}0${']'.repeat(40)}`,
];

const NOT_JSON: Array<{ label: string; contentType?: string; body: string }> = [
  { label: 'empty JSON', contentType: 'application/json', body: '' },
  { label: 'truncated JSON', contentType: 'application/json', body: '{"a": ' },
  { label: 'not JSON', contentType: 'application/json', body: 'not json at all' },
  { label: 'JSON null', contentType: 'application/json', body: 'null' },
  { label: 'JSON array', contentType: 'application/json', body: '[1,2,3]' },
  { label: 'JSON number', contentType: 'application/json', body: '1e309' },
  { label: 'JSON string', contentType: 'application/json', body: '"\\ud800"' },
  { label: 'proto pollution', contentType: 'application/json', body: '{"__proto__":{"x":1}}' },
  { label: 'constructor pollution', contentType: 'application/json', body: '{"constructor":{"prototype":{"x":1}}}' },
  { label: 'deep arrays', contentType: 'application/json', body: '['.repeat(5000) + ']'.repeat(5000) },
  { label: 'deep objects', contentType: 'application/json', body: '{"a":'.repeat(1500) + '1' + '}'.repeat(1500) },
  { label: 'huge array', contentType: 'application/json', body: `[${'0,'.repeat(150_000)}0]` },
  { label: 'many keys', contentType: 'application/json', body: `{${Array.from({ length: 5000 }, (_, index) => `"k${index}":${index}`).join(',')}}` },
  { label: 'latin-1 bytes', contentType: 'application/json', body: '{"name":"\u00e9\u00ff"}' },
  { label: 'json charset', contentType: 'application/json; charset=iso-8859-1', body: '{}' },
  { label: 'text/plain', contentType: 'text/plain', body: 'hello' },
  { label: 'form', contentType: 'application/x-www-form-urlencoded', body: 'name=a&email=%zz&x=%ED%A0%80&x=2&__proto__=1' },
  { label: 'multipart', contentType: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--' },
  { label: 'octet-stream', contentType: 'application/octet-stream', body: '\u0000\u0001' },
  { label: 'no content type', body: '{"a":1}' },
  { label: 'bogus content type', contentType: 'application/json;;;===', body: '{}' },
];

const HOSTILE_QUERY_VALUES = ['%zz', '%ED%A0%80', '%uD800', '%00', '', '-1', 'NaN', 'Infinity', '1e309', '0x10', 'true', '[]', '{}', '5.6,-0.18,9', ',', '999999999999999999999', 'x'.repeat(5000)];
const HOSTILE_HEADER_VALUES = ['bytes=5-1', 'bytes=0-', 'bytes=-0', 'bytes=99999999999999999999-', 'bytes=0-1,2-3', 'bytes=-99999999999999999999', 'items=0-1', 'bytes=a-b', '"etag', 'W/"x"', '*', 'Thu, 31 Feb 2026 25:00:00 GMT', 'x'.repeat(4000), '\u00e9\u00ff'];
const HOSTILE_PATH_VALUES = ['%zz', '%ED%A0%80', '%00', '%2F', '..', '%2E%2E', ' ', '%20', 'A'.repeat(600), 'A'.repeat(400), '%F0%9F%98%80', 'null', '-1'];

/** A small pick of `values`, always the first `keep`, then `count` more drawn at random. */
function pick<T>(random: () => number, values: T[], keep: number, count: number): T[] {
  const chosen = values.slice(0, keep);
  for (let index = 0; index < count; index++) chosen.push(values[keep + Math.floor(random() * (values.length - keep))]);
  return [...new Set(chosen)];
}

function urlOf(operation: Operation, pathValues: Record<string, string> = {}, query = ''): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => pathValues[name] ?? PLACEHOLDER);
  return query ? `${path}?${query}` : path;
}

/** The cases for one operation: malformed bodies, query strings and path parameters. */
export function casesFor(operation: Operation, random: () => number): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const add = (label: string, url: string, body?: string, contentType?: string) =>
    cases.push({ operation, label, method: operation.method, url, body, headers: body !== undefined && contentType ? { 'content-type': contentType } : {} });
  const base = Object.fromEntries(Object.entries(operation.body ?? {}).map(([name, schema]) => [name, plausible(schema)]));

  if (METHODS_WITH_BODY.has(operation.method.toLowerCase())) {
    add('plausible body', urlOf(operation), JSON.stringify(base), 'application/json');
    for (const field of Object.keys(operation.body ?? {})) {
      for (const value of pick(random, HOSTILE_VALUES, 2, 6).concat('"\\ud800"')) {
        const text = JSON.stringify({ ...base, [field]: '\u0001' }).replace('"\\u0001"', value);
        add(`body.${field} = ${value.slice(0, 40)}`, urlOf(operation), text, 'application/json');
      }
    }
    for (const hostile of pick(random, NOT_JSON, 12, 4)) add(hostile.label, urlOf(operation), hostile.body, hostile.contentType);
  }
  for (const parameter of operation.query) {
    for (const value of pick(random, HOSTILE_QUERY_VALUES, 2, 3)) add(`query ${parameter.name}=${value.slice(0, 40)}`, urlOf(operation, {}, `${parameter.name}=${value}`));
    add(`query ${parameter.name} twice`, urlOf(operation, {}, `${parameter.name}=1&${parameter.name}=2`));
    add(`query ${parameter.name}[]`, urlOf(operation, {}, `${parameter.name}[]=1&${parameter.name}[a]=2`));
  }
  for (const name of operation.headers) {
    for (const value of pick(random, HOSTILE_HEADER_VALUES, 1, 4)) {
      cases.push({ operation, label: `header ${name}: ${value.slice(0, 40)}`, method: operation.method, url: urlOf(operation), headers: { [name]: value } });
    }
  }
  add('unknown query parameter', urlOf(operation, {}, 'zz%ED%A0%80=1&zz=%zz'));
  for (const name of operation.pathParameters) {
    for (const value of pick(random, HOSTILE_PATH_VALUES, 3, 4)) add(`path ${name}=${value.slice(0, 40)}`, urlOf(operation, { [name]: value }));
  }
  return cases;
}

/** Without a key, or with a wrong one: the operation's access check must answer in the envelope too. */
export function keylessCasesFor(operation: Operation, random: () => number): FuzzCase[] {
  const keys: Array<[string, string | undefined]> = [
    ['no key', undefined],
    ['unknown key', 'f'.repeat(64)],
    ['latin-1 key', 'cl\u00e9-\u00ff'],
    ['8 KiB key', 'k'.repeat(8192)],
  ];
  const [label, key] = keys[Math.floor(random() * keys.length)];
  const body = METHODS_WITH_BODY.has(operation.method.toLowerCase()) ? '{"a":"\\ud800"}' : undefined;
  return [
    {
      operation,
      label,
      method: operation.method,
      url: urlOf(operation),
      body,
      headers: { ...(key === undefined ? {} : { 'x-api-key': key }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    },
  ];
}
