import 'reflect-metadata';
import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { compileQueryPlan, createValidationPipe, passQuery } from './validation.js';

const toNumber = () => Transform(({ value }) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value));

/** Shaped like GET /v2/reverse's query: transformed numbers with bounds, an optional integer, an enum. */
class PointQuery {
  @toNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lat must be a number from -90 to 90' })
  @Min(-90, { message: 'lat must be a number from -90 to 90' })
  @Max(90, { message: 'lat must be a number from -90 to 90' })
  lat: number;

  @toNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  lng: number;

  @IsOptional()
  @toNumber()
  @IsInt({ message: 'resolution must be an integer from 0 to 15' })
  @Min(0)
  @Max(15)
  resolution?: number;

  @IsOptional()
  @IsIn(['device_gps', 'user_confirmed'])
  source?: string;
}

/** Strings with a length bound, @Type conversion, a boolean transform, ValidateIf. */
class SearchQuery {
  @IsString()
  @MaxLength(20)
  q: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;

  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  fuzzy?: boolean;

  @ValidateIf((query: SearchQuery) => query.fuzzy === true)
  @IsString()
  @MaxLength(3)
  lang?: string;
}

/** @Transform functions reading their other arguments, one limited to a group (class-transformer skips it without groups). */
class TransformArgumentsQuery {
  @Transform(({ value, key, obj, type, options }) => `${key}=${String(value)} of ${Object.keys(obj as object).join('+')} (${type}, unset ${String(options.exposeUnsetFields)})`)
  @Transform(({ value }) => `[${String(value)}]`, { groups: ['admin'] })
  @IsString()
  @MaxLength(60)
  label: string;

  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @Transform(({ value }) => (typeof value === 'string' ? `${value}!` : value))
  @IsIn(['EN!', 'TW!'])
  lang?: string;
}

class Inner {
  @IsString()
  name: string;
}

/** Nested validation: not what a plan covers. */
class NestedQuery {
  @ValidateNested()
  @Type(() => Inner)
  inner: Inner;
}

const standard = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, stopAtFirstError: true, validationError: { target: true } });
const compiled = createValidationPipe();
// The production pipe's error wording, from its exception factory, on both sides.
const factory = (compiled as unknown as { exceptionFactory: ValidationPipe['createExceptionFactory'] }).exceptionFactory;
(standard as unknown as { exceptionFactory: unknown }).exceptionFactory = factory;

async function outcome(pipe: ValidationPipe, value: Record<string, unknown>, metatype: Function) {
  const metadata: ArgumentMetadata = { type: 'query', metatype: metatype as never, data: undefined };
  try {
    const result = (await pipe.transform({ ...value }, metadata)) as object;
    return { ok: true, constructor: result.constructor, value: { ...result } };
  } catch (error) {
    const { message, field, status } = error as { message: string; field?: string; status?: number };
    return { ok: false, message, field, status };
  }
}

/** Every combination of up to `size` keys from `keys`, each with every value of `pool`, deterministically thinned to `limit`. */
function queries(keys: string[], pool: unknown[], limit: number): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < limit; i++) {
    const query: Record<string, unknown> = {};
    for (const key of keys) if (next() < 0.7) query[key] = pool[Math.floor(next() * pool.length)];
    out.push(query);
  }
  return out;
}

const VALUES = ['', ' ', 'abc', '0', '1', '-1', '5.6', '-0.187', '90', '90.0001', '-181', '15', '16', '3.5', '1e3', 'NaN', 'Infinity', '0x10', 'device_gps', 'gps', 'true', 'false', 'x'.repeat(25), 'en', ['1', '2']];

describe('the compiled query validation (ADR 0028)', () => {
  it('compiles flat DTOs, and declines nested ones', () => {
    expect(compileQueryPlan(PointQuery)?.properties.map((p) => p.name)).toEqual(['lat', 'lng', 'resolution', 'source']);
    expect(compileQueryPlan(SearchQuery)).toBeDefined();
    expect(compileQueryPlan(TransformArgumentsQuery)).toBeDefined();
    expect(compileQueryPlan(NestedQuery)).toBeUndefined();
  });

  it('passes a valid query itself, with the instance class-transformer builds', () => {
    const passed = passQuery(compileQueryPlan(PointQuery)!, PointQuery, { lat: '5.6', lng: '-0.187', resolution: '12' });
    expect(passed).toBeInstanceOf(PointQuery);
    expect({ ...passed }).toEqual({ lat: 5.6, lng: -0.187, resolution: 12 });
    // Not passed (the standard pipe decides): a bound broken, an unknown key, a repeated parameter.
    expect(passQuery(compileQueryPlan(PointQuery)!, PointQuery, { lat: '95', lng: '0' })).toBeUndefined();
    expect(passQuery(compileQueryPlan(PointQuery)!, PointQuery, { lat: '5', lng: '0', extra: '1' })).toBeUndefined();
    expect(passQuery(compileQueryPlan(PointQuery)!, PointQuery, { lat: ['5', '6'], lng: '0' })).toBeUndefined();
  });

  it.each([
    ['PointQuery', PointQuery, ['lat', 'lng', 'resolution', 'source', 'extra']],
    ['SearchQuery', SearchQuery, ['q', 'limit', 'fuzzy', 'lang', 'other']],
    ['TransformArgumentsQuery', TransformArgumentsQuery, ['label', 'lang', 'other']],
    ['NestedQuery', NestedQuery, ['inner', 'x']],
  ] as const)('answers %s queries exactly as class-validator does (value, class, or error and field)', async (_name, metatype, keys) => {
    let passes = 0;
    for (const query of queries([...keys], VALUES, 1500)) {
      const expected = await outcome(standard, query, metatype);
      const actual = await outcome(compiled, query, metatype);
      expect({ query, ...actual }).toEqual({ query, ...expected });
      if (expected.ok) passes++;
    }
    // Both outcomes occur, so the comparison covers the compiled pass as well as the errors.
    if (metatype !== NestedQuery) expect(passes).toBeGreaterThan(5);
  });

  it('leaves bodies and parameters to the standard pipe', async () => {
    const pipe = createValidationPipe();
    await expect(pipe.transform({ lat: '5', lng: '1', extra: 1 }, { type: 'body', metatype: PointQuery as never, data: undefined })).rejects.toMatchObject({ field: 'extra' });
    expect(await pipe.transform('12', { type: 'param', metatype: Number as never, data: 'id' })).toBe(12);
  });
});

describe('remembered class-validator rules', () => {
  class Parent {
    @IsString()
    name: string;
  }
  class Child extends Parent {
    @IsInt()
    @Min(1)
    count: number;
  }
  const body = (metatype: Function): ArgumentMetadata => ({ type: 'body', metatype: metatype as never, data: undefined });

  it('answers as the library does, for an inherited rule too, each time', async () => {
    const pipe = createValidationPipe();
    for (let round = 0; round < 3; round++) {
      await expect(pipe.transform({ name: 'a', count: 2 }, body(Child))).resolves.toMatchObject({ name: 'a', count: 2 });
      await expect(pipe.transform({ name: 7, count: 2 }, body(Child))).rejects.toMatchObject({ field: 'name' });
      await expect(pipe.transform({ name: 'a', count: 0 }, body(Child))).rejects.toMatchObject({ field: 'count' });
      await expect(pipe.transform({ name: 'a', count: 2, extra: 1 }, body(Child))).rejects.toThrow(/extra/);
    }
  });

  it('sees a rule added after a lookup was remembered', async () => {
    const pipe = createValidationPipe();
    class Late {
      @IsString()
      a: string;
    }
    await expect(pipe.transform({ a: 'x' }, body(Late))).resolves.toMatchObject({ a: 'x' });
    // A decorator applied now (as a module loaded late would): the remembered lookup must not hide it.
    IsInt()(Late.prototype, 'b');
    await expect(pipe.transform({ a: 'x', b: 3 }, body(Late))).resolves.toMatchObject({ a: 'x', b: 3 });
    await expect(pipe.transform({ a: 'x', b: 'not a number' }, body(Late))).rejects.toThrow(/integer/);
  });
});
