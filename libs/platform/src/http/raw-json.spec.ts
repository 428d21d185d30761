import { boundedJsonParser, JSON_BODY_LIMITS, scanJsonText, type BodyParser } from './json-body.js';
import { itemsIn } from './expensive.js';
import { RawJson, scanJsonBytes } from './raw-json.js';

const limits = { maxDepth: 3, maxValues: 20, maxMembers: 4 };
const bytes = (text: string) => Buffer.from(text, 'utf8');
const lengthsOf = (text: string, arrays = ['items']) => Object.fromEntries(scanJsonBytes(bytes(text), JSON_BODY_LIMITS, arrays).lengths);

describe('scanJsonBytes', () => {
  it('finds the same breach and surrogate escapes as scanJsonText on the same text, multi-byte characters included', () => {
    const texts = [
      '[[[0]]]',
      '[[[[0]]]]',
      '{"a":{"b":[{}]}}',
      '["[[[[[", "{{{{{{"]',
      '["\\"[[[[["]',
      '["\\\\", [[[0]]]]',
      `[${'0,'.repeat(19)}0]`,
      `[${'0,'.repeat(20)}0]`,
      `["${','.repeat(50)}"]`,
      '{"a":1,"b":2,"c":3,"d":4,"e":5}',
      '{"a":{"x":1},"b":[1,2,3,4,5,6],"c":"d:e:f:g:h","d":4}',
      '{"é":"Ɛwe ŋ, 😀","b":["ŋ[",{"ɔ":"{"}],"c":1}',
      '["\\ud800"]',
      '["\\uDFFF"]',
      '["\\u0041\\uc7ff"]',
      '["\\\\ud800"]',
    ];
    for (const text of texts) {
      const { breach, surrogateEscape } = scanJsonBytes(bytes(text), limits);
      expect({ text, breach, surrogateEscape }).toEqual({ text, ...scanJsonText(text, limits) });
    }
  });

  it('reads the length of a named top-level array, as JSON.parse would see it', () => {
    const items = Array.from({ length: 1234 }, (_, index) => (index % 3 === 0 ? { lat: 5.6, lng: -0.18, id: `a,b]${index}` } : index % 3 === 1 ? '6Q3-HQK-Q4ZA' : [1, [2, 3]]));
    expect(lengthsOf(JSON.stringify({ resolution: 12, items }))).toEqual({ items: 1234 });
    expect(lengthsOf(' { "items" : [ 1 , 2 ] , "other": [1,2,3] } ')).toEqual({ items: 2 });
    expect(lengthsOf('{"items":[]}')).toEqual({ items: 0 });
    expect(lengthsOf('{"items":[ ]}')).toEqual({ items: 0 });
    expect(lengthsOf('{"items":[{}]}')).toEqual({ items: 1 });
    expect(lengthsOf('{"a":{"items":[1,2,3]},"items":["x"]}')).toEqual({ items: 1 });
  });

  it('follows JSON.parse: escaped names count, the last member of a name wins, and only an array is counted', () => {
    expect(lengthsOf('{"\\u0069tems":[1,2,3]}')).toEqual({ items: 3 });
    expect(lengthsOf('{"items":[1,2,3],"items":[4]}')).toEqual({ items: 1 });
    expect(lengthsOf('{"items":[1,2,3],"items":null}')).toEqual({});
    expect(lengthsOf('{"items":"[1,2,3]"}')).toEqual({});
    expect(lengthsOf('{"items":{"a":[1,2]}}')).toEqual({});
    expect(lengthsOf('[{"items":[1,2]}]')).toEqual({});
    expect(lengthsOf('{"item":[1,2],"itemss":[1]}')).toEqual({});
    expect(lengthsOf('{"x":"items","y":[1,2]}')).toEqual({});
  });
});

describe('a @RawJsonBody route in the JSON parser', () => {
  const parse: BodyParser<string> = (_request, body, done) => done(null, JSON.parse(body));
  const run = (text: string) =>
    new Promise<{ error: Error | null; value?: unknown }>((resolve) => {
      const request = { routeOptions: { config: { rawJson: { arrays: ['items'] } } } };
      boundedJsonParser(parse, limits)(request as never, bytes(text), (error, value) => resolve({ error, value }));
    });

  it('hands the scanned bytes on unparsed, with the item count the quota reads', async () => {
    const { error, value } = await run('{"items":[1,2,3] oops');
    expect(error).toBeNull();
    expect(value).toBeInstanceOf(RawJson);
    expect((value as RawJson).bytes.toString()).toBe('{"items":[1,2,3] oops');
    expect(itemsIn('items', 10)(value)).toBe(3);
    expect(itemsIn('items', 2)(value)).toBe(1);
    expect((value as RawJson).surrogateEscape).toBe(false);
    expect(((await run('{"items":["\\ud800"]}')).value as RawJson).surrogateEscape).toBe(true);
  });

  it('still refuses a body over the limits before anything else', async () => {
    expect((await run('{"items":[[[[1]]]]}')).error).toMatchObject({ code: 'BODY_TOO_COMPLEX', details: { limit: 'depth', max: 3 } });
  });
});
