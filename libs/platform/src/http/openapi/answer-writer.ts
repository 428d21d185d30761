import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
/**
 * The response schema Fastify compiles with fast-json-stringify for an answer
 * that opts in (`@ApiAnswer(X, { serialise: true })`, ADR 40): the envelope
 * around the answer's schema, rewritten so that the compiled writer writes the
 * value it is given and nothing else. fast-json-stringify reads a schema as an
 * instruction, not a check: a `const` is written whatever the value holds, an
 * `integer` is truncated, a missing `required` property throws, a union is
 * resolved by validating each branch with ajv on every answer. So:
 *
 * - `const` becomes its type, `integer` becomes `number`, `required` and the
 *   validation-only keywords (formats, bounds, patterns, descriptions) go: the
 *   writer keeps values as they are, as JSON.stringify would;
 * - a union of scalars of one type (string literals, a template literal),
 *   with or without `null`, becomes that type (`nullable` for the null);
 *   `X | null` becomes X with `nullable: true`; a union of objects becomes one
 *   object with every branch's properties, none required, when the branches
 *   agree on the properties they share. No ajv call is left on the way;
 * - a union that cannot be merged stays as the answer declares it (validated).
 *
 * What the rewrite cannot restore is a property the schema does not list: it is
 * dropped, before the e2e contract check (ADR 39) could see it. The guards:
 * every e2e answer of an opted-in route is compared with JSON.stringify of the
 * same value (`checkSchemaWriters`, below), and
 * test/answer-serialisation.e2e-spec.ts compares each route's real answers.
 */
export function answerWriterSchema(answer: { readonly schema: object }, options: { raw?: boolean } = {}): JsonSchema {
  const data = writerSchema(answer.schema as unknown as JsonSchema);
  if (options.raw) return data;
  return { type: 'object', properties: { success: { type: 'boolean' }, data } };
}

export type JsonSchema = { [keyword: string]: unknown };

/** Keywords that only validate or describe: the writer does not need them, and two branches differing in them still merge. */
const DROPPED = new Set(['required', 'format', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'description', 'title', 'examples', 'example', 'default', 'enum', '$id']);
const SCALARS = new Set(['string', 'number', 'boolean']);

function writerSchema(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) return writerUnion(schema, (schema.anyOf ?? schema.oneOf) as JsonSchema[]);
  const out: JsonSchema = {};
  // Object.entries leaves TypeBox's symbol-keyed markers behind: the result is plain JSON Schema.
  for (const [keyword, value] of Object.entries(schema)) {
    if (DROPPED.has(keyword)) continue;
    if (keyword === 'const') continue;
    if (keyword === 'properties') out.properties = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([name, property]) => [name, writerSchema(property)]));
    else if (keyword === 'items' && !Array.isArray(value)) out.items = writerSchema(value as JsonSchema);
    else out[keyword] = value;
  }
  if ('const' in schema) out.type = schema.const === null ? 'null' : typeof schema.const === 'object' ? undefined : typeof schema.const;
  if (out.type === 'integer') out.type = 'number';
  if (out.type === undefined) delete out.type;
  return out;
}

function writerUnion(schema: JsonSchema, branches: JsonSchema[]): JsonSchema {
  const written = branches.map(writerSchema);
  const values = written.filter((branch) => branch.type !== 'null');
  const nullable = values.length < written.length ? { nullable: true } : {};
  if (values.length === 0) return { type: 'null' };
  const types = new Set(values.map((branch) => branch.type));
  const [type] = types;
  if (types.size === 1 && typeof type === 'string' && SCALARS.has(type) && values.every((branch) => Object.keys(branch).every((keyword) => keyword === 'type'))) {
    return { type, ...nullable };
  }
  if (values.length === 1 && typeof values[0].type === 'string' && values[0].anyOf === undefined && values[0].oneOf === undefined) return { ...values[0], ...nullable };
  if (types.size === 1 && type === 'object') {
    const merged = mergeObjects(values);
    if (merged) return { ...merged, ...nullable };
  }
  // Not reducible: fast-json-stringify validates each branch, as declared, to pick one.
  return schema;
}

/** One object with every branch's properties, or null when two branches write a shared property differently. */
function mergeObjects(branches: JsonSchema[]): JsonSchema | null {
  const properties: Record<string, JsonSchema> = {};
  for (const branch of branches) {
    if (branch.additionalProperties !== undefined || branch.patternProperties !== undefined) return null;
    for (const [name, property] of Object.entries((branch.properties ?? {}) as Record<string, JsonSchema>)) {
      const known = properties[name];
      if (known && JSON.stringify(known) !== JSON.stringify(property)) return null;
      properties[name] = property;
    }
  }
  return { type: 'object', properties };
}

const plainAnswer = Symbol('the answer as JSON.stringify writes it');

/**
 * The e2e harness's mode (`schemaWriters: 'checked'`, test/support/boot.ts):
 * every answer a schema writer sends is compared with JSON.stringify of the same
 * value, and a difference (a property the schema lacks, a value written
 * otherwise) answers 500, so the test that met it fails and the contract check
 * sees what the writer would have hidden. Costs one more JSON.stringify and two
 * parses per answer: tests only.
 */
export function checkSchemaWriters(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (request.routeOptions.schema?.response) (reply as unknown as Record<symbol, string>)[plainAnswer] = JSON.stringify(payload);
    return payload;
  });
  fastify.addHook('onSend', async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const plain = (reply as unknown as Record<symbol, string | undefined>)[plainAnswer];
    if (plain === undefined || typeof payload !== 'string') return payload;
    if (isDeepStrictEqual(JSON.parse(payload), JSON.parse(plain))) return payload;
    throw new Error(`the schema writer of ${reply.request.method} ${reply.request.routeOptions.url} wrote ${payload.slice(0, 300)} for ${plain.slice(0, 300)}: its answer schema lacks a property, or writes a value otherwise`);
  });
}
