import { describe, expect, it } from '@jest/globals';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Type, type TSchema } from '@sinclair/typebox';
import Fastify from 'fastify';
import { answerWriterSchema } from './answer-writer.js';
import { ApiAnswer, defineAnswer, Nullable } from './answers.js';

/**
 * The writer Fastify compiles from an answer's schema (ADR 40) writes what
 * JSON.stringify would: fast-json-stringify, given the schema as declared,
 * would write a `const` whatever the value, truncate a non-integer `integer`,
 * throw on a missing `required` property and validate every union branch.
 */
let names = 0;
async function written(schema: TSchema, data: unknown): Promise<string> {
  const answer = defineAnswer(`WriterCase${names++}`, schema, data as never);
  const app = Fastify();
  app.get('/', { schema: { response: { 200: answerWriterSchema(answer) } } }, async () => ({ success: true, data }));
  const response = await app.inject('/');
  await app.close();
  expect(response.statusCode).toBe(200);
  return response.body;
}

const same = async (schema: TSchema, data: unknown) => expect(JSON.parse(await written(schema, data))).toStrictEqual(JSON.parse(JSON.stringify({ success: true, data })));

describe('answerWriterSchema', () => {
  it('writes the value a literal holds, not the literal', async () => {
    const schema = Type.Object({ status: Type.Literal('accepted'), kind: Type.Union([Type.Literal('a'), Type.Literal('b')]) });
    await same(schema, { status: 'refused', kind: 'c' });
  });

  it('does not truncate a number declared integer', async () => {
    await same(Type.Object({ count: Type.Integer() }), { count: 2.5 });
  });

  it('leaves out a missing property, as JSON.stringify does, where fast-json-stringify would throw on `required`', async () => {
    await same(Type.Object({ a: Type.String(), b: Type.Number() }), { a: 'x' });
  });

  it('writes null where the schema allows it, and the value where there is one', async () => {
    const schema = Type.Object({ place: Nullable(Type.Object({ name: Type.String(), distance_m: Type.Number() })), label: Nullable(Type.String()) });
    await same(schema, { place: null, label: null });
    await same(schema, { place: { name: 'Makola', distance_m: 12.5 }, label: 'near Makola' });
  });

  it('writes each branch of a union of objects with its own properties, without validating', async () => {
    const schema = Type.Union([
      Type.Object({ status: Type.Literal('accepted'), id: Type.String(), late: Type.Boolean() }),
      Type.Object({ status: Type.Literal('refused'), error: Type.Object({ code: Type.String() }) }),
    ]);
    expect(answerWriterSchema(defineAnswer(`WriterCase${names++}`, schema, { status: 'accepted', id: 'p', late: false })).properties).toMatchObject({ data: { type: 'object' } });
    await same(schema, { status: 'accepted', id: 'p1', late: false });
    await same(schema, { status: 'refused', error: { code: 'CONSENT_REQUIRED' } });
  });

  it('keeps a union whose branches disagree on a shared property as declared (validated branch by branch)', async () => {
    const schema = Type.Union([Type.Object({ value: Type.String() }), Type.Object({ value: Type.Number() })]);
    expect(answerWriterSchema(defineAnswer(`WriterCase${names++}`, schema, { value: 'x' })).properties).toMatchObject({ data: { anyOf: expect.any(Array) } });
    await same(schema, { value: 'x' });
    await same(schema, { value: 3 });
  });

  it('drops a property the schema does not list: what the e2e contract check is there to prevent', async () => {
    const body = JSON.parse(await written(Type.Object({ a: Type.String() }), { a: 'x', b: 1 }));
    expect(body).toStrictEqual({ success: true, data: { a: 'x' } });
  });

  it('writes a raw answer without the envelope', async () => {
    const answer = defineAnswer(`WriterCase${names++}`, Type.Object({ status: Type.String() }), { status: 'ok' });
    const app = Fastify();
    app.get('/', { schema: { response: { 200: answerWriterSchema(answer, { raw: true }) } } }, async () => ({ status: 'ok', extra: 1 }));
    expect(JSON.parse((await app.inject('/')).body)).toStrictEqual({ status: 'ok' });
    await app.close();
  });
});

const Opted = defineAnswer('WriterOptedIn', Type.Object({ a: Type.String() }), { a: 'x' });

@Controller()
class WriterController {
  @Get('written')
  @ApiAnswer(Opted, { serialise: true })
  written(): unknown {
    return { success: true, data: { a: 'x', extra: 1 } };
  }

  @Get('stringified')
  @ApiAnswer(Opted)
  stringified(): unknown {
    return { success: true, data: { a: 'x', extra: 1 } };
  }
}

@Module({ controllers: [WriterController] })
class WriterModule {}

describe('@ApiAnswer(X, { serialise: true })', () => {
  it("makes the answer's schema the route's response schema in Fastify; without it the route answers through JSON.stringify", async () => {
    const app = await NestFactory.create<NestFastifyApplication>(WriterModule, new FastifyAdapter(), { logger: false });
    await app.init();
    try {
      const fastify = app.getHttpAdapter().getInstance();
      // The property the schema does not list shows which writer answered.
      expect(JSON.parse((await fastify.inject('/written')).body)).toStrictEqual({ success: true, data: { a: 'x' } });
      expect(JSON.parse((await fastify.inject('/stringified')).body)).toStrictEqual({ success: true, data: { a: 'x', extra: 1 } });
    } finally {
      await app.close();
    }
  });
});
