import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, InvalidParamError } from '../errors.js';
import { failure } from './envelope.js';
import { RawJson, rawJsonRouteOf, SCAN_SLICE_BYTES, scanJsonBytes, scanJsonBytesInSlices, type JsonBytesScan } from './raw-json.js';
import { stepsInTurns } from './expensive.js';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, LOWER_U, OPEN_BRACE, OPEN_BRACKET, QUOTE, type JsonBodyLimit, type JsonBodyLimits } from './json-syntax.js';
import { mergeRouteConfig } from './route-config.js';

/**
 * Bounds on the shape of a JSON request body, checked on the raw text before
 * JSON.parse and before anything walks the parsed value (issue #10): class-
 * transformer recurses per level and overflowed the stack near 1,300 levels
 * (a 500); a 1 MiB body of half a million tiny values held the event loop for
 * seconds; and one object of 90,000 members took 10–15 s in the validation
 * pipe (its cost grows faster than the member count). The largest legitimate
 * bodies stay well inside: a full `/v2/hexcode/bulk` batch is about 50,000
 * values, a geofence polygon of 1,000 vertices and 20 holes about 63,000; no
 * request object has more than a dozen members, nor nests beyond 6 levels.
 */
export const JSON_BODY_LIMITS = {
  /** Arrays and objects inside one another. */
  maxDepth: 32,
  /** Array elements and object members in the whole body (each array or object counts as one more). */
  maxValues: 100_000,
  /** Members of any one object. */
  maxMembers: 1_000,
} as const;

export type { JsonBodyLimit, JsonBodyLimits } from './json-syntax.js';

const LIMIT_MESSAGES: Record<JsonBodyLimit, (max: number) => string> = {
  depth: (max) => `request body nests arrays and objects deeper than ${max} levels`,
  values: (max) => `request body holds more than ${max} values (array elements and object members)`,
  members: (max) => `an object of the request body has more than ${max} members`,
};

/** 400 BODY_TOO_COMPLEX: the body breaks one of JSON_BODY_LIMITS; `details` says which and the bound. */
export class BodyTooComplexError extends DomainError {
  readonly code = 'BODY_TOO_COMPLEX';
  readonly status = 400;
  override readonly field = 'body';
  override readonly details: Readonly<{ limit: JsonBodyLimit; max: number }>;

  constructor(limit: JsonBodyLimit, limits: JsonBodyLimits = JSON_BODY_LIMITS) {
    const max = limit === 'depth' ? limits.maxDepth : limit === 'values' ? limits.maxValues : limits.maxMembers;
    super(LIMIT_MESSAGES[limit](max));
    this.details = { limit, max };
  }
}

export interface JsonTextScan {
  /** The first limit the text breaks, if any. */
  breach?: JsonBodyLimit;
  /** A `\uD800`–`\uDFFF` escape occurs in a string: JSON.parse may then yield a lone surrogate. */
  surrogateEscape: boolean;
}


/**
 * One pass over the text, stopping at the first breach. It does not decide
 * whether the text is JSON (JSON.parse does, afterwards): it only counts
 * brackets, separators and member colons outside strings, so a breach is
 * found whatever else is wrong with the text. Values are counted as
 * separators plus containers, exact for non-empty containers.
 */
export function scanJsonText(text: string, limits: JsonBodyLimits = JSON_BODY_LIMITS): JsonTextScan {
  // Per open container (index = depth): whether it is an object, and its members so far.
  const isObject = new Uint8Array(limits.maxDepth + 1);
  const members = new Uint32Array(limits.maxDepth + 1);
  let depth = 0;
  let values = 0;
  let inString = false;
  let surrogateEscape = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === QUOTE) inString = false;
      else if (char === BACKSLASH) {
        if (text.charCodeAt(index + 1) === LOWER_U && isSurrogateEscape(text, index + 2)) surrogateEscape = true;
        index++;
      }
      continue;
    }
    switch (char) {
      case QUOTE:
        inString = true;
        break;
      case OPEN_BRACKET:
      case OPEN_BRACE:
        if (++depth > limits.maxDepth) return { breach: 'depth', surrogateEscape };
        if (++values > limits.maxValues) return { breach: 'values', surrogateEscape };
        isObject[depth] = char === OPEN_BRACE ? 1 : 0;
        members[depth] = 0;
        break;
      case CLOSE_BRACKET:
      case CLOSE_BRACE:
        if (depth > 0) depth--;
        break;
      case COLON:
        if (isObject[depth] === 1 && ++members[depth] > limits.maxMembers) return { breach: 'members', surrogateEscape };
        break;
      case COMMA:
        if (++values > limits.maxValues) return { breach: 'values', surrogateEscape };
        break;
    }
  }
  return { surrogateEscape };
}

/** `DXXX` with X ≥ 8 in the first place: the escape names a code unit of the surrogate range. */
function isSurrogateEscape(text: string, at: number): boolean {
  const first = text.charCodeAt(at) | 0x20;
  if (first !== 0x64) return false; // d or D
  const second = text.charCodeAt(at + 1) | 0x20;
  return (second >= 0x38 && second <= 0x39) || (second >= 0x61 && second <= 0x66); // 8, 9, a–f
}

/** Matches only unpaired surrogates: with the `u` flag a well-formed pair is one code point, outside the category. */
const LONE_SURROGATE = /\p{Surrogate}/u;

export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/**
 * The path of the first string (or member name) that is not well-formed
 * UTF-16, in the validation pipe's notation (`pings[3].customer_id`; `body`
 * for the body itself or a bad member name at its top). Validators such as
 * `isEmail` throw on a lone surrogate, and no store or log should hold one.
 * Recursion is bounded by JSON_BODY_LIMITS.maxDepth, checked before.
 */
export function illFormedPath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return isWellFormedText(value) ? undefined : path || 'body';
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = illFormedPath(value[index], `${path || 'body'}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [name, member] of Object.entries(value)) {
      if (!isWellFormedText(name)) return path || 'body';
      const found = illFormedPath(member, path ? `${path}.${name}` : name);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export class IllFormedTextError extends InvalidParamError {
  constructor(field: string) {
    super(`${field} is not well-formed Unicode: it holds a lone UTF-16 surrogate (a \\ud800–\\udfff escape without its pair)`, field);
  }
}

/**
 * A route's own budget for its request body (issue 31, item 1), far under the
 * global JSON_BODY_LIMITS: a public report has a handful of fields, so 3,000
 * objects of 32 members are refused on the Content-Length, or at the first
 * value past the budget while the text is scanned, before JSON.parse and
 * before the validation pipe walks anything.
 */
export interface BodyBudget {
  /** Bytes of the body; over it 413 PAYLOAD_TOO_LARGE (on Content-Length, before the body is read). */
  maxBytes: number;
  /** Array elements and object members in the whole body, containers included (as JSON_BODY_LIMITS.maxValues). */
  maxValues: number;
  /** Nesting depth; default 4. */
  maxDepth?: number;
}

const BUDGET_KEY = 'bodyBudget';

/** Declares a route's body budget (Fastify route config, read by the JSON parser and the request hook). */
export function BodyBudget(budget: BodyBudget): MethodDecorator {
  return mergeRouteConfig({ [BUDGET_KEY]: budget });
}

const REQUEST_BUDGET = Symbol('requestBodyBudget');
type BudgetedRequest = FastifyRequest & { [REQUEST_BUDGET]?: BodyBudget };

function routeBudgetOf(request: FastifyRequest): BodyBudget | undefined {
  return (request.routeOptions?.config as { [BUDGET_KEY]?: BodyBudget } | undefined)?.[BUDGET_KEY];
}

function budgetOf(request: FastifyRequest): BodyBudget | undefined {
  return routeBudgetOf(request) ?? (request as BudgetedRequest)[REQUEST_BUDGET];
}

/**
 * Gives one request a budget when its route declares none (issue 31: a caller
 * without a valid key gets a much smaller body than a keyed one). Set in a
 * request hook, it is applied like a route's: by `refuseOverBudget` and by the parser.
 */
export function budgetRequest(request: FastifyRequest, budget: BodyBudget): void {
  if (!routeBudgetOf(request)) (request as BudgetedRequest)[REQUEST_BUDGET] = budget;
}

export class BodyOverBudgetError extends DomainError {
  readonly code = 'PAYLOAD_TOO_LARGE';
  readonly status = 413;
  override readonly field = 'body';
  override readonly details: Readonly<{ max_bytes: number }>;
  constructor(maxBytes: number) {
    super(`request body is larger than this endpoint takes (${maxBytes} bytes)`);
    this.details = { max_bytes: maxBytes };
  }
}

/**
 * The request hook's half: a declared Content-Length over the route's budget
 * is 413, in the envelope, before a byte of the body is read. Given
 * `jsonMaxBytes` (BODY_LIMIT_BYTES, what the JSON parser takes), a JSON body
 * on a route without a budget is held to it the same way, before any
 * preParsing hook or parser sees the request (issue 47). Other media types
 * are bounded by their own parsers, which refuse on the declared length too.
 */
export function refuseOverBudget(request: FastifyRequest, reply: FastifyReply, jsonMaxBytes?: number): boolean {
  const maxBytes = budgetOf(request)?.maxBytes ?? (jsonMaxBytes !== undefined && isJsonBody(request) ? jsonMaxBytes : undefined);
  if (maxBytes === undefined) return false;
  const length = Number(request.headers['content-length'] ?? 0);
  if (!(length > maxBytes)) return false;
  const error = new BodyOverBudgetError(maxBytes);
  void reply
    .header('connection', 'close')
    .status(error.status)
    .send(failure(error.code, error.message, { field: error.field, details: error.details, request_id: String(request.id) }));
  return true;
}

/** The media type the platform's JSON parser takes (`application/json`, parameters allowed). */
function isJsonBody(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && /^\s*application\/json\s*(;|$)/i.test(type);
}

function limitsOf(budget: BodyBudget | undefined, limits: JsonBodyLimits): JsonBodyLimits {
  if (!budget) return limits;
  return { maxDepth: Math.min(budget.maxDepth ?? 4, limits.maxDepth), maxValues: Math.min(budget.maxValues, limits.maxValues), maxMembers: Math.min(budget.maxValues, limits.maxMembers) };
}

type Done = (error: Error | null, body?: unknown) => void;
/** A body parser in Fastify's callback form (Fastify's own JSON parser is one). */
export type BodyParser<Raw extends string | Buffer> = (request: FastifyRequest, body: Raw, done: Done) => void;

/**
 * The application/json parser, given the body's bytes: the shape scan first,
 * then Fastify's own parser (which keeps its prototype-poisoning checks), then
 * — only when the text had a surrogate escape — the well-formedness walk. A
 * `@RawJsonBody` route gets the scanned bytes as a `RawJson` instead, parsed
 * later off the event loop (ADR 0041).
 */
export function boundedJsonParser(parse: BodyParser<string>, limits: JsonBodyLimits = JSON_BODY_LIMITS): BodyParser<Buffer> {
  return (request, bytes, done) => {
    const budget = budgetOf(request);
    // A chunked body has no Content-Length for the request hook to refuse on.
    if (budget && bytes.length > budget.maxBytes) return done(new BodyOverBudgetError(budget.maxBytes));
    const routeLimits = limitsOf(budget, limits);
    const raw = rawJsonRouteOf(request);
    if (raw) {
      const scanned = (scan: JsonBytesScan) =>
        scan.breach ? done(new BodyTooComplexError(scan.breach, routeLimits)) : done(null, new RawJson(bytes, scan.surrogateEscape, scan.lengths));
      if (bytes.length <= SCAN_SLICE_BYTES) return scanned(scanJsonBytes(bytes, routeLimits, raw.arrays));
      // A slice per turn of the loop (docs/adr/0051): a 10,000-point bulk scanned at once held it 5–13 ms under load.
      stepsInTurns(scanJsonBytesInSlices(bytes, routeLimits, raw.arrays)).then(scanned, (error: unknown) => done(error as Error));
      return;
    }
    // What Fastify's `parseAs: 'string'` made of the same bytes (a UTF-8 decoding).
    const text = bytes.toString('utf8');
    const scan = scanJsonText(text, routeLimits);
    if (scan.breach) {
      done(new BodyTooComplexError(scan.breach, routeLimits));
      return;
    }
    parse(request, text, (error, value) => {
      if (error) return done(error);
      const field = scan.surrogateEscape ? illFormedPath(value) : undefined;
      if (field !== undefined) return done(new IllFormedTextError(field));
      done(null, value);
    });
  };
}
