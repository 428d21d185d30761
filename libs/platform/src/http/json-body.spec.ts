import { BodyTooComplexError, boundedJsonParser, illFormedPath, IllFormedTextError, JSON_BODY_LIMITS, scanJsonText, type BodyParser } from './json-body.js';

const limits = { maxDepth: 3, maxValues: 20, maxMembers: 4 };

describe('scanJsonText', () => {
  it('counts nesting of arrays and objects, not brackets inside strings', () => {
    expect(scanJsonText('[[[0]]]', limits)).toEqual({ surrogateEscape: false });
    expect(scanJsonText('[[[[0]]]]', limits).breach).toBe('depth');
    expect(scanJsonText('{"a":{"b":[{}]}}', limits).breach).toBe('depth');
    expect(scanJsonText('["[[[[[", "{{{{{{"]', limits).breach).toBeUndefined();
    expect(scanJsonText('["\\"[[[[["]', limits).breach).toBeUndefined();
    expect(scanJsonText('["\\\\", [[[0]]]]', limits).breach).toBe('depth');
  });

  it('counts array elements and object members, each container as one more', () => {
    expect(scanJsonText(`[${'0,'.repeat(19)}0]`, limits).breach).toBeUndefined();
    expect(scanJsonText(`[${'0,'.repeat(20)}0]`, limits).breach).toBe('values');
    expect(scanJsonText(`[${'{"a":1,"b":2},'.repeat(7)}0]`, limits).breach).toBe('values');
    expect(scanJsonText(`["${','.repeat(50)}"]`, limits).breach).toBeUndefined();
  });

  it('counts the members of each object on its own', () => {
    expect(scanJsonText('{"a":1,"b":2,"c":3,"d":{"e":1,"f":2,"g":3,"h":4}}', limits).breach).toBeUndefined();
    expect(scanJsonText('{"a":1,"b":2,"c":3,"d":4,"e":5}', limits).breach).toBe('members');
    expect(scanJsonText('[{"a":1,"b":2,"c":3,"d":4},{"a":1,"b":2,"c":3,"d":4}]', limits).breach).toBeUndefined();
    expect(scanJsonText('{"a":{"x":1},"b":[1,2,3,4,5,6],"c":"d:e:f:g:h","d":4,"e":5}', limits).breach).toBe('members');
    expect(scanJsonText('{"a":{"x":1},"b":[1,2,3,4,5,6],"c":"d:e:f:g:h","d":4}', limits).breach).toBeUndefined();
  });

  // How fast is a benchmark's question (the standards forbid timed assertions); here: the breach is found on huge texts.
  it('finds the first breach of a huge text without parsing it', () => {
    expect(scanJsonText('['.repeat(5_000_000)).breach).toBe('depth');
    expect(scanJsonText(`[${'0,'.repeat(500_000)}0]`).breach).toBe('values');
  });

  it('takes the largest legitimate bodies (a full bulk batch, a big polygon)', () => {
    const bulk = JSON.stringify({ items: Array.from({ length: 10_000 }, (_, id) => ({ lat: 5.6, lng: -0.18, resolution: 13, id: `shop-${id}` })), resolution: 13 });
    expect(scanJsonText(bulk).breach).toBeUndefined();
    const ring = Array.from({ length: 1000 }, (_, index) => [index / 1000, index / 2000]);
    const polygon = JSON.stringify({ fence_type: 'polygon', customer_id: 'c', polygon: { type: 'Polygon', coordinates: Array.from({ length: 21 }, () => ring) } });
    expect(scanJsonText(polygon).breach).toBeUndefined();
    expect(JSON_BODY_LIMITS).toEqual({ maxDepth: 32, maxValues: 100_000, maxMembers: 1000 });
  });

  it('flags a surrogate escape in any case, not an escaped backslash before "ud800"', () => {
    expect(scanJsonText('["\\ud800"]').surrogateEscape).toBe(true);
    expect(scanJsonText('["\\uDFFF"]').surrogateEscape).toBe(true);
    expect(scanJsonText('["\\u0041\\uc7ff"]').surrogateEscape).toBe(false);
    expect(scanJsonText('["\\\\ud800"]').surrogateEscape).toBe(false);
  });
});

describe('illFormedPath', () => {
  it('names the first string holding a lone surrogate in the validation pipe notation', () => {
    expect(illFormedPath({ email: 'a\ud800@example.com' })).toBe('email');
    expect(illFormedPath({ pings: [{ id: 'ok' }, { id: '\udc00' }] })).toBe('pings[1].id');
    expect(illFormedPath('\ud800')).toBe('body');
    expect(illFormedPath(['ok', '\ud800'])).toBe('body[1]');
    expect(illFormedPath({ a: { '\ud800': 1 } })).toBe('a');
  });

  it('passes well-formed text, surrogate pairs included', () => {
    expect(illFormedPath({ name: 'Ama \ud83d\ude00', tags: ['x', 1, null, true, { y: 'z' }] })).toBeUndefined();
  });
});

describe('boundedJsonParser', () => {
  const parse: BodyParser<string> = (_request, body, done) => {
    try {
      done(null, JSON.parse(body));
    } catch (error) {
      done(error as Error);
    }
  };
  const run = (text: string) =>
    new Promise<{ error: Error | null; value?: unknown }>((resolve) => {
      boundedJsonParser(parse, limits)({} as never, Buffer.from(text), (error, value) => resolve({ error, value }));
    });

  it('refuses a breach before parsing, with the limit in the details', async () => {
    const { error } = await run('[[[[');
    expect(error).toBeInstanceOf(BodyTooComplexError);
    expect(error).toMatchObject({ status: 400, code: 'BODY_TOO_COMPLEX', field: 'body', details: { limit: 'depth', max: 3 } });
  });

  it('refuses a lone surrogate naming the field, and parses the rest', async () => {
    expect((await run('{"email":"\\ud800"}')).error).toEqual(expect.any(IllFormedTextError));
    expect((await run('{"email":"\\ud800"}')).error).toMatchObject({ code: 'INVALID_PARAM', field: 'email' });
    expect(await run('{"name":"\\ud83d\\ude00"}')).toEqual({ error: null, value: { name: '\ud83d\ude00' } });
  });
});
