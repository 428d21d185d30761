import { describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import { contexts } from '../apps/shared/contexts.js';
import { answerWriterSchema, serialisedAnswers, type Answer } from '../libs/platform/src/index.js';

/**
 * Issue 28, item 3 (ADR 40): the routes that answer through Fastify's
 * schema writer (`@ApiAnswer(X, { serialise: true })`) must write what
 * JSON.stringify wrote before: same keys, same values. Each opted-in answer's
 * example is written through Fastify with the route's response schema, and so
 * is every variant of it that the schema allows and the example does not show
 * (each nullable part null, each optional part left out).
 * test/answer-serialisation.e2e-spec.ts does the same
 * with answers the running service computed.
 */

/** Where the answers the routes opt in are: importing the contexts loads every controller, so every `serialise: true` is seen. */
const expected = ['ReverseAnswer', 'RouteAnswer'];

describe('answers written from their schema (ADR 40)', () => {
  it('are the ones this test knows', () => {
    expect(contexts.length).toBeGreaterThan(0);
    expect([...serialisedAnswers()].map((answer) => answer.name).sort()).toEqual(expected);
  });

  for (const name of expected) {
    it(`${name}: the example and each variant the schema allows are written as JSON.stringify writes them`, async () => {
      const answer = [...serialisedAnswers()].find((candidate) => candidate.name === name) as Answer;
      const cases = [answer.example, ...variants(answer.schema as unknown as Schema, answer.example)];
      const app = Fastify();
      let current: unknown;
      app.get('/', { schema: { response: { 200: answerWriterSchema(answer) } } }, async () => ({ success: true, data: current }));
      try {
        for (const data of cases) {
          current = data;
          const response = await app.inject('/');
          expect(response.statusCode).toBe(200);
          expect(JSON.parse(response.body)).toStrictEqual(JSON.parse(JSON.stringify({ success: true, data })));
        }
      } finally {
        await app.close();
      }
    });
  }
});

type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[] };

/** Copies of `value`, each with one nullable part set to null or one optional part left out, at any depth (first array item only). */
function variants(schema: Schema, value: unknown): unknown[] {
  if (schema.anyOf) {
    const object = schema.anyOf.find((branch) => branch.type === 'object' && value !== null && typeof value === 'object' && !Array.isArray(value));
    return object ? variants(object, value) : [];
  }
  if (schema.type === 'array' && Array.isArray(value) && value.length > 0 && schema.items) {
    return variants(schema.items, value[0]).map((first) => [first, ...value.slice(1)]);
  }
  if (schema.type !== 'object' || value === null || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  const out: unknown[] = [];
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (!(key in record)) continue;
    if (!(schema.required ?? []).includes(key)) {
      const { [key]: _left, ...without } = record;
      out.push(without);
    }
    if (record[key] !== null && property.anyOf?.some((branch) => branch.type === 'null')) out.push({ ...record, [key]: null });
    for (const inner of variants(property, record[key])) out.push({ ...record, [key]: inner });
  }
  return out;
}
