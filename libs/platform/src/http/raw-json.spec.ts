import { boundedJsonParser, JSON_BODY_LIMITS, scanJsonText, type BodyParser } from './json-body.js';
import { itemsIn } from './expensive.js';
import { countLoopTurns } from '../testing/loop-turns.js';
import { RawJson, SCAN_SLICE_BYTES, scanJsonBytes, scanJsonBytesInSlices, type JsonBytesScan } from './raw-json.js';

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

describe('scanJsonBytesInSlices', () => {
  const sliced = (text: string, sliceBytes: number, scanLimits = limits) => {
    const steps = scanJsonBytesInSlices(bytes(text), scanLimits, ['items'], sliceBytes);
    let pauses = 0;
    for (;;) {
      const step = steps.next();
      if (step.done) return { scan: step.value, pauses };
      pauses++;
    }
  };
  const plain = (scan: JsonBytesScan) => ({ breach: scan.breach, surrogateEscape: scan.surrogateEscape, lengths: Object.fromEntries(scan.lengths) });

  it('gives the same scan as one pass, whatever byte a slice ends on (inside a string, an escape, a name)', () => {
    const texts = [
      '{"items":[1,2,3],"b":"x\\"y","c":[[[0]]]}',
      '{"\u0069tems":["\ud800",{"a":"]"},3],"items":[4,5]}',
      '{"é":"Ɛwe ŋ, 😀","items":["ŋ[",{"ɔ":"{"}],"c":1}',
      '{"items":[[[[1]]]]}',
      `{"items":[${'0,'.repeat(25)}0]}`,
      '{"a":1,"b":2,"c":3,"d":4,"e":5}',
    ];
    for (const text of texts) {
      const whole = plain(scanJsonBytes(bytes(text), limits, ['items']));
      for (let sliceBytes = 1; sliceBytes <= 12; sliceBytes++) expect({ text, sliceBytes, ...plain(sliced(text, sliceBytes).scan) }).toEqual({ text, sliceBytes, ...whole });
    }
  });

  it('pauses once per slice, and stops at a breach', () => {
    const text = JSON.stringify({ items: Array.from({ length: 1000 }, (_, index) => index) });
    const wide = { maxDepth: 3, maxValues: 2000, maxMembers: 4 };
    const { scan, pauses } = sliced(text, 100, wide);
    expect(scan.lengths.get('items')).toBe(1000);
    expect(pauses).toBe(Math.ceil(Buffer.byteLength(text) / 100) - 1);
    // Over the values limit early on: the scan ends there, not at the end of the bytes.
    const breached = sliced(text, 100, { ...wide, maxValues: 50 });
    expect(breached.scan.breach).toBe('values');
    expect(breached.pauses).toBeLessThan(3);
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

  it('scans a body larger than a slice over several turns of the loop, with the same outcome', async () => {
    const wide = { maxDepth: 3, maxValues: 100_000, maxMembers: 4 };
    const parseWide = (text: string) =>
      new Promise<{ error: Error | null; value?: unknown; turns: number }>((resolve) => {
        const request = { routeOptions: { config: { rawJson: { arrays: ['items'] } } } };
        const ticker = countLoopTurns();
        boundedJsonParser(parse, wide)(request as never, bytes(text), (error, value) => resolve({ error, value, turns: ticker.stop() }));
      });
    const items = Array.from({ length: 20_000 }, (_, index) => index);
    const text = JSON.stringify({ items });
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * SCAN_SLICE_BYTES);
    const scanned = await parseWide(text);
    expect(scanned.error).toBeNull();
    expect(itemsIn('items', 50_000)(scanned.value)).toBe(20_000);
    // The loop turned between the slices: other requests got in.
    expect(scanned.turns).toBeGreaterThanOrEqual(Math.ceil(Buffer.byteLength(text) / SCAN_SLICE_BYTES) - 1);
    // A breach after the first slice is still refused.
    const deep = JSON.stringify({ items: [...items, [[[1]]]] });
    expect((await parseWide(deep)).error).toMatchObject({ code: 'BODY_TOO_COMPLEX', details: { limit: 'depth', max: 3 } });
  });
});
