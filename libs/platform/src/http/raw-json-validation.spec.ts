import 'reflect-metadata';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';
import { validateRawJson } from './raw-json-validation.js';

/** A bulk request's shape: an array checked as a whole, its items checked one by one elsewhere. */
class BatchRequest {
  @IsArray({ message: 'items must be an array' })
  @ArrayMinSize(1, { message: 'items must hold at least one item' })
  @ArrayMaxSize(4, { message: 'items holds at most 4 items' })
  items: unknown[];

  @IsOptional()
  @IsInt({ message: 'resolution must be an integer' })
  @Min(0, { message: 'resolution must be an integer' })
  @Max(15, { message: 'resolution must be an integer' })
  resolution?: number;
}

const bytes = (text: string) => Buffer.from(text);

describe('validateRawJson with opaque arrays (issue 49)', () => {
  it('refuses a request word for word as without them', async () => {
    const bodies = ['{"items":[]}', '{"items":[1,2,3,4,5]}', '{"items":{"a":1}}', '{"items":"x"}', '{"items":[1],"resolution":16}', '{"items":[1],"colour":"red"}', '[1]', '{"items":[1]', 'null'];
    for (const body of bodies) {
      const plain = await validateRawJson(bytes(body), false, BatchRequest);
      const opaque = await validateRawJson(bytes(body), false, BatchRequest, ['items']);
      expect(plain.ok).toBe(false);
      expect(opaque).toEqual(plain);
    }
  });

  it('hands back the parsed items, stripped of prototype keys as the pipe strips every object, and the other fields validated', async () => {
    const body = '{"resolution":9,"items":[{"lat":1,"constructor":2,"nested":{"prototype":{"a":1},"keep":[{"constructor":"x","b":2}]}},"code",[1,{"constructor":3}],null]}';
    const [plain, opaque] = await Promise.all([validateRawJson(bytes(body), false, BatchRequest), validateRawJson(bytes(body), false, BatchRequest, ['items'])]);
    expect([plain, opaque]).toEqual([expect.objectContaining({ ok: true }), expect.objectContaining({ ok: true })]);
    if (!plain.ok || !opaque.ok) return;
    expect(opaque.value).toBeInstanceOf(BatchRequest);
    expect(opaque.value.resolution).toBe(9);
    expect(opaque.value.items).toEqual([{ lat: 1, nested: { keep: [{ b: 2 }] } }, 'code', [1, {}], null]);
    expect(JSON.stringify(opaque.value.items)).toBe(JSON.stringify(plain.value.items));
  });
});
