import { applyDecorators } from '@nestjs/common';
import { RouteSchema } from '@nestjs/platform-fastify';
import { ApiExtension, ApiResponse } from '@nestjs/swagger';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { answerWriterSchema } from './answer-writer.js';

/**
 * A success answer's `data`, described once beside its slice (ADR 39). The
 * schema is a TypeBox schema, so one declaration is three things at once:
 * - the JSON Schema the OpenAPI document publishes as `components.schemas[name]`;
 * - the TypeScript type of the answer (`AnswerOf<typeof X>`), which a controller
 *   returns, so the code cannot drift from what is documented without failing to compile;
 * - the schema the e2e suite validates every answer against (ajv).
 *
 * The example is typed by the schema too: an example that does not fit fails to compile.
 */
export interface Answer<S extends TSchema = TSchema> {
  readonly name: string;
  readonly schema: S;
  readonly example: Static<S>;
}

type DeepReadonly<T> = T extends (infer E)[] ? readonly DeepReadonly<E>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/** The type of an answer's `data`, read-only so that domain types with read-only arrays fit it. */
export type AnswerOf<A extends Answer> = DeepReadonly<Static<A['schema']>>;

/** `T | null`, as the answers write a part the data cannot give. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One of a list of strings, as the answers write an enumeration (`status`, `decision`…). */
export const Literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((value) => Type.Literal(value)));

const answers = new Map<string, Answer>();

/** Declares a named answer schema; names are the component names, so they are unique. */
export function defineAnswer<S extends TSchema>(name: string, schema: S, example: Static<S>): Answer<S> {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`answer name ${name} must be PascalCase (an OpenAPI component name)`);
  const existing = answers.get(name);
  if (existing && existing.schema !== schema) throw new Error(`two answers are named ${name}`);
  const answer: Answer<S> = { name, schema, example };
  answers.set(name, answer);
  return answer;
}

/** Every declared answer, by component name (read when the document is built). */
export const declaredAnswers = (): ReadonlyMap<string, Answer> => answers;

const serialised = new Set<Answer>();

/** The answers some route writes from their schema (`serialise: true`): the serialisation test covers each. */
export const serialisedAnswers = (): ReadonlySet<Answer> => serialised;

export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests the key may make in its daily window (a bulk call or a ping batch counts its items)', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'What is left of that allowance', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the window resets, in Unix seconds', schema: { type: 'integer' } },
  'X-RateLimit-Rate-Limit': { description: "Keyed requests: what the account may send a minute in this endpoint group (its tier's rate or the operator's override)", schema: { type: 'integer' } },
  'X-RateLimit-Rate-Remaining': { description: 'Keyed requests: what is left of that rate now', schema: { type: 'integer' } },
  'X-RateLimit-Rate-Reset': { description: 'Keyed requests: when that rate next has more room, in Unix seconds', schema: { type: 'integer' } },
  'X-RateLimit-Policy': { description: 'Keyed requests: the limits that apply, e.g. `"quota";q=20000;w=86400, "routing";q=600;w=60` (q requests per w seconds)', schema: { type: 'string' } },
} as const;

export interface AnswerOptions {
  /** 200 unless the operation creates (201) or accepts for later (202). */
  status?: 200 | 201 | 202;
  /** What the answer means; the schema's own descriptions say what each field is. */
  description?: string;
  /** An example request body (operations with a body), shown beside the response example. */
  requestExample?: unknown;
  /** The answer goes out as it is, outside the envelope (/health, the JWKS: decisions.md, "Fixed behaviour"). */
  raw?: boolean;
  /**
   * Fastify writes the answer from its schema (fast-json-stringify) instead of
   * JSON.stringify (ADR 40, "Serialising answers from their schemas"): only
   * where `npm run bench -- hexcode` measured a win. A property the schema does
   * not list is dropped, unseen by the e2e contract check: add the route's cases
   * to test/answer-serialisation.e2e-spec.ts. Anything a `@Res()` handler sends
   * with this status goes through the same writer.
   */
  serialise?: boolean;
}

export const REQUEST_EXAMPLE_EXTENSION = 'x-request-example';

/**
 * Documents an operation's success answer: the envelope `{success: true, data}`
 * with `data` the named component, an example built from the answer's example,
 * and the rate-limit headers. Error statuses stay documented with
 * `@ApiResponse({status, description})` naming their codes in capitals; the
 * document's finishing step turns each into the error envelope with those codes
 * (answer-document.ts).
 */
export function ApiAnswer(answer: Answer, options: AnswerOptions = {}): MethodDecorator {
  const ref = { $ref: `#/components/schemas/${answer.name}` };
  const decorators: MethodDecorator[] = [
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? (options.raw ? `A ${answer.name}, outside the envelope` : `\`data\` is a ${answer.name}`),
      headers: RATE_LIMIT_HEADERS,
      content: {
        'application/json': {
          schema: options.raw
            ? ref
            : { type: 'object', required: ['success', 'data'], properties: { success: { type: 'boolean', enum: [true] }, data: ref }, additionalProperties: false },
          example: options.raw ? answer.example : { success: true, data: answer.example },
        },
      },
    }),
  ];
  if (options.serialise) {
    serialised.add(answer);
    decorators.push(RouteSchema({ response: { [options.status ?? 200]: answerWriterSchema(answer, { raw: options.raw }) } }));
  }
  if (options.requestExample !== undefined) decorators.push(ApiExtension(REQUEST_EXAMPLE_EXTENSION, options.requestExample));
  return applyDecorators(...decorators);
}
