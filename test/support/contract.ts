import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';

// ajv and ajv-formats are CommonJS; their default exports do not survive ESM interop the same way in every runner.
const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020.js').default as typeof import('ajv').default;
const addFormats = require('ajv-formats').default as (ajv: InstanceType<typeof Ajv2020>) => void;

/**
 * Every answer the e2e suite receives is checked against the document the
 * service serves (issue 28, item 2; ADR 39): the status must be documented for
 * the operation, and a JSON body must fit the schema documented for that status.
 * A mismatch fails the request, so the test that produced it fails and names it.
 *
 * Strictness the published document leaves out on purpose: every object schema
 * is checked as if `additionalProperties: false`, so an answer field missing from
 * the documentation is a mismatch too (clients may keep tolerating new fields).
 */
export class ContractMismatchError extends Error {}

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  literalSegments: number;
  operation: Operation;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** A copy of a schema with `additionalProperties: false` on every object that lists its properties and says nothing. */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  // allOf members describe parts of one object: each alone must not refuse the others' properties.
  for (const [key, value] of Object.entries(schema)) copy[key] = key === 'example' || key === 'examples' || key === 'allOf' ? value : strict(value);
  if (copy.properties && typeof copy.properties === 'object' && !('additionalProperties' in copy) && !copy.allOf) copy.additionalProperties = false;
  return copy;
}

export class ContractChecker {
  private readonly routes: Route[] = [];
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly ajv: InstanceType<typeof Ajv2020>;

  constructor(document: { paths: Record<string, Record<string, unknown>>; components?: { schemas?: Record<string, unknown> } }) {
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'doc', components: { schemas: strict(document.components?.schemas ?? {}) } });
    for (const [template, methods] of Object.entries(document.paths)) {
      const segments = template.split('/');
      const pattern = new RegExp(`^${segments.map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`);
      const literalSegments = segments.filter((segment) => !/^\{.+\}$/.test(segment)).length;
      for (const method of METHODS) {
        const operation = methods[method] as Operation | undefined;
        if (operation) this.routes.push({ method: method.toUpperCase(), template, pattern, literalSegments, operation });
      }
    }
    // The most literal template wins (/v2/webhooks/deliveries before /v2/webhooks/{id}).
    this.routes.sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** The operation a request reached, or undefined for a path the document does not have. */
  route(method: string, url: string): Route | undefined {
    const path = new URL(url, 'http://service').pathname;
    return this.routes.find((route) => route.method === method.toUpperCase() && route.pattern.test(path));
  }

  /** Why an answer does not fit the document, or undefined when it does. */
  mismatch(method: string, url: string, status: number, contentType: string | null, body: string): string | undefined {
    const route = this.route(method, url);
    if (!route) return undefined; // unknown paths answer 404/405 in the envelope; the http-hardening suite checks those
    const responses = route.operation.responses ?? {};
    const documented = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    const where = `${method.toUpperCase()} ${route.template} answered ${status}`;
    if (!documented) return `${where}, a status the document does not list (it lists ${Object.keys(responses).join(', ')})`;
    const schema = documented.content?.['application/json']?.schema;
    if (!schema || !contentType?.includes('json')) return undefined;
    const key = `${route.method} ${route.template} ${status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      const resolved = JSON.parse(JSON.stringify(strict(schema)).replaceAll('"#/components/schemas/', '"doc#/components/schemas/')) as object;
      validate = this.ajv.compile(resolved);
      this.validators.set(key, validate);
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return `${where} with a body that is not JSON`;
    }
    if (validate(value)) return undefined;
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((error) => `${error.instancePath || '/'} ${error.message}${error.params && 'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : ''}`)
      .join('; ');
    return `${where} with a body the document does not describe: ${errors}`;
  }
}

/**
 * Checks a response, then hands it back untouched. With CONTRACT_REPORT=<file>
 * every mismatch is also appended to that file (to survey a whole run).
 */
export async function checkAnswer(checker: ContractChecker, method: string, url: string, response: Response): Promise<Response> {
  const body = await response.clone().text();
  const problem = checker.mismatch(method, url, response.status, response.headers.get('content-type'), body);
  if (!problem) return response;
  if (process.env.CONTRACT_REPORT) appendFileSync(process.env.CONTRACT_REPORT, `${problem} — ${body.slice(0, 160)}\n`);
  throw new ContractMismatchError(`${problem}\n  body: ${body.slice(0, 400)}`);
}
