import { declaredAnswers, RATE_LIMIT_HEADERS, REQUEST_EXAMPLE_EXTENSION } from './answers.js';

/** The OpenAPI document as far as this step reads and writes it. */
interface Document {
  paths: Record<string, Record<string, Operation | unknown>>;
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown };
}

interface Operation {
  security?: Array<Record<string, unknown>>;
  parameters?: unknown[];
  'x-access'?: string;
  requestBody?: { content?: Record<string, { schema?: unknown; example?: unknown }> };
  responses?: Record<string, Response>;
  [REQUEST_EXAMPLE_EXTENSION]?: unknown;
}

interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown; example?: unknown }>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/** An error code is written in capitals with underscores (`INVALID_PARAM`); these few have none. */
const SINGLE_WORD_CODES = new Set(['FORBIDDEN', 'CONFLICT', 'UNAUTHORIZED']);
const CODE_PATTERN = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z]{6,}\b/g;

/** The error codes a response's description names. */
export function codesNamedIn(description: string | undefined): string[] {
  const codes = new Set<string>();
  for (const match of (description ?? '').matchAll(CODE_PATTERN)) {
    const code = match[0];
    if (code.includes('_') || SINGLE_WORD_CODES.has(code)) codes.add(code);
  }
  return [...codes].sort();
}

const ERROR_ENVELOPE = {
  type: 'object',
  description: 'Every error answer (decisions.md, "Fixed behaviour").',
  required: ['success', 'error'],
  additionalProperties: false,
  properties: {
    success: { type: 'boolean', const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', description: 'Machine-readable; the codes each status can carry are listed per operation' },
        message: { type: 'string', description: 'For people; may change' },
        field: { type: 'string', description: 'The request field at fault' },
        details: { type: 'object', description: 'What a client can act on; its shape is documented per code' },
        request_id: { type: 'string' },
      },
    },
  },
} as const;

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } };

/** Errors every keyed operation can answer, whatever the slice documents. */
const KEYED_ERRORS: Record<string, { description: string; codes: string[]; headers?: Record<string, unknown> }> = {
  '401': { description: 'MISSING_API_KEY: no X-API-Key header; INVALID_API_KEY: unknown, revoked or expired', codes: ['INVALID_API_KEY', 'MISSING_API_KEY'] },
  '429': {
    description: 'RATE_LIMITED: the key has used its daily allowance, or a rate or throttle refused the call (`error.details` names it: `scope` key, tier, account or ip); wait Retry-After seconds',
    codes: ['RATE_LIMITED'],
    headers: { ...RETRY_AFTER, ...RATE_LIMIT_HEADERS },
  },
};

/** What every operation answers while its process is overloaded. */
const SERVICE_BUSY = { description: 'SERVICE_BUSY: the service is overloaded and shed the call before reading it; wait Retry-After seconds', codes: ['SERVICE_BUSY'] };

/** Refusals an access level adds (libs/platform/src/http/access.ts). */
const ACCESS_ERRORS: Record<string, { description: string; codes: string[] }> = {
  account: { description: 'ACCOUNT_KEY_REQUIRED: the key belongs to no account', codes: ['ACCOUNT_KEY_REQUIRED'] },
  banking: {
    description: 'ACCOUNT_KEY_REQUIRED: the key belongs to no account; BANKING_ACCESS_REQUIRED: the account is not provisioned for banking; IP_NOT_ALLOWED: outside its allowlist',
    codes: ['ACCOUNT_KEY_REQUIRED', 'BANKING_ACCESS_REQUIRED', 'IP_NOT_ALLOWED'],
  },
  admin: { description: 'ADMIN_KEY_REQUIRED: the operator key is needed', codes: ['ADMIN_KEY_REQUIRED'] },
};

/** Errors every operation with a JSON body can answer. */
const BODY_ERRORS: Record<string, { description: string; codes: string[] }> = {
  '400': {
    description: 'INVALID_JSON: the body is not JSON; INVALID_PARAM naming the field; BODY_TOO_COMPLEX: nested too deep or too many values',
    codes: ['BODY_TOO_COMPLEX', 'INVALID_JSON', 'INVALID_PARAM'],
  },
  '413': { description: 'PAYLOAD_TOO_LARGE: the body is over the size limit', codes: ['PAYLOAD_TOO_LARGE'] },
  '415': { description: 'UNSUPPORTED_MEDIA_TYPE: the body is not application/json, or has a Content-Encoding', codes: ['UNSUPPORTED_MEDIA_TYPE'] },
};

function errorContent(codes: string[]) {
  const schema =
    codes.length === 0
      ? { $ref: '#/components/schemas/ErrorEnvelope' }
      : {
          allOf: [
            { $ref: '#/components/schemas/ErrorEnvelope' },
            { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes } } } } },
          ],
        };
  return { 'application/json': { schema, example: { success: false, error: { code: codes[0] ?? 'INVALID_PARAM', message: 'what went wrong, for people', request_id: 'req-1' } } } };
}

function addError(operation: Operation, status: string, description: string, codes: string[], headers?: Record<string, unknown>): void {
  operation.responses ??= {};
  const existing = operation.responses[status];
  if (!existing) {
    operation.responses[status] = { description, ...(headers ? { headers } : {}) };
    return;
  }
  if (existing.content) return;
  // The slice documented this status; the platform's own codes join the ones it names.
  const named = codesNamedIn(existing.description);
  const missing = codes.filter((code) => !named.includes(code));
  if (missing.length > 0) existing.description = `${existing.description ?? ''}; also ${missing.join(', ')} (every such operation)`;
  if (headers) existing.headers = { ...headers, ...existing.headers };
}

/**
 * Finishes the document Nest builds from the controllers (ADR 39):
 * - every declared answer becomes `components.schemas[name]`, beside `ErrorEnvelope`;
 * - every error status an operation documents gets the error envelope, its
 *   `error.code` limited to the codes its description names;
 * - keyed operations gain 401 and 429, operations with a JSON body 400, 413 and 415,
 *   where the slice did not document them;
 * - an `x-request-example` becomes the request body's example.
 */
export function finishDocument<D extends object>(input: D): D {
  const document = input as unknown as Document;
  document.components ??= {};
  const schemas = (document.components.schemas ??= {});
  schemas.ErrorEnvelope = ERROR_ENVELOPE;
  for (const [name, answer] of declaredAnswers()) schemas[name] = JSON.parse(JSON.stringify(answer.schema)) as unknown;

  for (const methods of Object.values(document.paths)) {
    for (const [method, value] of Object.entries(methods)) {
      if (!METHODS.has(method)) continue;
      const operation = value as Operation;
      const keyed = (operation.security ?? []).some((requirement) => 'api_key' in requirement);
      const jsonBody = operation.requestBody?.content?.['application/json'];
      if (keyed) for (const [status, error] of Object.entries(KEYED_ERRORS)) addError(operation, status, error.description, error.codes, error.headers);
      if (jsonBody) for (const [status, error] of Object.entries(BODY_ERRORS)) addError(operation, status, error.description, error.codes);
      else if ((operation.parameters ?? []).length > 0) addError(operation, '400', 'INVALID_PARAM naming the parameter', ['INVALID_PARAM']);
      const paged = (operation.parameters ?? []).some((parameter) => (parameter as { name?: string }).name === 'cursor');
      if (paged) addError(operation, '400', 'READ_STORE_INVALID_CURSOR: a cursor from another query, or altered', ['READ_STORE_INVALID_CURSOR']);
      const inPath = (operation.parameters ?? []).some((parameter) => (parameter as { in?: string }).in === 'path');
      if (inPath) addError(operation, '414', 'URI_TOO_LONG: a path parameter is longer than 500 characters', ['URI_TOO_LONG']);
      const access = ACCESS_ERRORS[operation['x-access'] ?? ''];
      if (access) addError(operation, '403', access.description, access.codes);
      if (operation['x-access'] === 'admin') addError(operation, '401', KEYED_ERRORS['401'].description, KEYED_ERRORS['401'].codes);
      // Any operation can be shed while its process is overloaded (libs/platform/src/http/overload.ts, issue 48); joins a slice's own 503 before its codes are listed.
      addError(operation, '503', SERVICE_BUSY.description, SERVICE_BUSY.codes, RETRY_AFTER);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) >= 400 && !response.content) response.content = errorContent(codesNamedIn(response.description));
      }
      const example = operation[REQUEST_EXAMPLE_EXTENSION];
      if (example !== undefined) {
        if (jsonBody) jsonBody.example = example;
        delete operation[REQUEST_EXAMPLE_EXTENSION];
      }
    }
  }
  return input;
}
