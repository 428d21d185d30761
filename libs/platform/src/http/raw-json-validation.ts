import Fastify from 'fastify';
import { DomainError } from '../errors.js';
import { fastifyClientError } from './exception.filter.js';
import { illFormedPath, IllFormedTextError, type BodyParser } from './json-body.js';
import { createValidationPipe } from './validation.js';

/**
 * A refusal as plain data, to cross a thread boundary: what the exception
 * filter puts in the envelope (ADR 0041).
 */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  field?: string;
  details?: Readonly<Record<string, unknown>>;
}

/** A refusal made in a thread, thrown again on the main thread: the filter answers it as the original error. */
export class RefusedError extends DomainError {
  readonly code: string;
  readonly status: number;
  override readonly field?: string;
  override readonly details?: Readonly<Record<string, unknown>>;

  constructor(refusal: Refusal) {
    super(refusal.message);
    this.code = refusal.code;
    this.status = refusal.status;
    if (refusal.field !== undefined) this.field = refusal.field;
    if (refusal.details !== undefined) this.details = refusal.details;
  }
}

export type RawJsonValidation<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

let parseJson: BodyParser<string> | undefined;
let pipe: ReturnType<typeof createValidationPipe> | undefined;

/**
 * What the main thread does with the JSON body of an ordinary route, after
 * the shape scan, for a `@RawJsonBody` route's bytes wherever they are
 * parsed (a worker thread): Fastify's own JSON parser (its prototype-poisoning
 * checks included), the lone-surrogate walk when the scan saw an escape, and
 * the application's validation pipe for `metatype` — so the same request
 * gets the same 400, word for word, and the DTO stays the one source of the
 * rules. `bytes` null is a request without a body.
 *
 * `opaque` names top-level arrays the DTO checks only as arrays (type,
 * sizes), whose items the caller checks one by one (bulk hex coding's
 * `items`): the pipe is shown an array of as many nulls, so it does not copy
 * thousands of items it never looks into (issue 49: the copy was a third of
 * a bulk item's cost), and the value keeps the parsed array, its items
 * stripped of prototype keys as the pipe strips every object.
 */
export async function validateRawJson<T extends object>(bytes: Uint8Array | null, surrogateEscape: boolean, metatype: new () => T, opaque: readonly (keyof T & string)[] = []): Promise<RawJsonValidation<T>> {
  try {
    let value: unknown;
    if (bytes !== null) {
      parseJson ??= Fastify().getDefaultJsonParser('error', 'error') as BodyParser<string>;
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      value = await new Promise((resolve, reject) => parseJson!({} as never, text, (error, parsed) => (error ? reject(error) : resolve(parsed))));
      const field = surrogateEscape ? illFormedPath(value) : undefined;
      if (field !== undefined) throw new IllFormedTextError(field);
    }
    pipe ??= createValidationPipe();
    const kept = new Map<string, unknown[]>();
    if (opaque.length > 0 && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const shown: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const field of opaque) {
        const items = shown[field];
        if (!Array.isArray(items)) continue;
        kept.set(field, items);
        shown[field] = new Array<null>(items.length).fill(null);
      }
      if (kept.size > 0) value = shown;
    }
    const validated = (await pipe.transform(value, { type: 'body', metatype })) as T;
    for (const [field, items] of kept) {
      stripPrototypeKeys(items);
      (validated as Record<string, unknown>)[field] = items;
    }
    return { ok: true, value: validated };
  } catch (error) {
    return { ok: false, refusal: refusalOf(error) };
  }
}

/**
 * What the validation pipe does to every object of a body before it copies it
 * (Nest's stripProtoKeys: own `__proto__`, `prototype` and `constructor` keys
 * deleted), for parsed JSON: plain objects, arrays and primitives, no cycles.
 * Its own stack, so no nesting depth overflows the call stack.
 */
function stripPrototypeKeys(value: unknown): void {
  const stack = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      for (const item of current) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    const record = current as Record<string, unknown>;
    for (const key of PROTOTYPE_KEYS) if (Object.hasOwn(record, key)) delete record[key];
    for (const key in record) {
      const item = record[key];
      if (typeof item === 'object' && item !== null) stack.push(item);
    }
  }
}
const PROTOTYPE_KEYS = ['__proto__', 'prototype', 'constructor'] as const;

function refusalOf(error: unknown): Refusal {
  if (error instanceof DomainError) {
    return { status: error.status, code: error.code, message: error.message, ...(error.field !== undefined ? { field: error.field } : {}), ...(error.details ? { details: error.details } : {}) };
  }
  // Fastify's parser fails with its own client errors (empty or invalid JSON), named as the filter names them.
  const fastifyError = error as { statusCode?: unknown; code?: unknown; message?: unknown };
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    const code = error instanceof SyntaxError ? 'FST_ERR_CTP_INVALID_JSON_BODY' : typeof fastifyError.code === 'string' ? fastifyError.code : undefined;
    return fastifyClientError(fastifyError.statusCode, code, typeof fastifyError.message === 'string' ? fastifyError.message : 'bad request');
  }
  throw error;
}
