import { evaluatePreconditions, parseEntityTags, type ConditionalHeaders } from './preconditions.js';

describe('evaluatePreconditions (RFC 9110 §13.2.2)', () => {
  const current = { etag: '"3e8-17f"', lastModifiedMs: Date.parse('2025-03-01T10:00:00.750Z') };
  const lastModified = new Date(current.lastModifiedMs).toUTCString();
  const earlier = 'Sat, 01 Mar 2025 09:59:59 GMT';
  const later = 'Sat, 01 Mar 2025 10:00:01 GMT';
  const evaluate = (headers: ConditionalHeaders) => evaluatePreconditions(headers, current);

  it('proceeds with the range without conditional headers', () => {
    expect(evaluate({})).toEqual({ outcome: 'proceed', honourRange: true });
  });

  it('If-None-Match: 304 when any listed tag matches weakly, or for *', () => {
    expect(evaluate({ 'if-none-match': '"3e8-17f"' }).outcome).toBe('not-modified');
    expect(evaluate({ 'if-none-match': '"other", W/"3e8-17f"' }).outcome).toBe('not-modified');
    expect(evaluate({ 'if-none-match': '*' }).outcome).toBe('not-modified');
    expect(evaluate({ 'if-none-match': '"other"' }).outcome).toBe('proceed');
    expect(evaluate({ 'if-none-match': 'garbage' }).outcome).toBe('proceed');
  });

  it('If-Modified-Since: 304 unless modified after the date, at one-second resolution', () => {
    expect(evaluate({ 'if-modified-since': lastModified }).outcome).toBe('not-modified');
    expect(evaluate({ 'if-modified-since': later }).outcome).toBe('not-modified');
    expect(evaluate({ 'if-modified-since': earlier }).outcome).toBe('proceed');
    expect(evaluate({ 'if-modified-since': 'not a date' }).outcome).toBe('proceed');
  });

  it('If-None-Match takes precedence over If-Modified-Since', () => {
    expect(evaluate({ 'if-none-match': '"other"', 'if-modified-since': later }).outcome).toBe('proceed');
  });

  it('If-Match needs a strong match; If-Unmodified-Since fails after a change', () => {
    expect(evaluate({ 'if-match': '"3e8-17f"' }).outcome).toBe('proceed');
    expect(evaluate({ 'if-match': '*' }).outcome).toBe('proceed');
    expect(evaluate({ 'if-match': 'W/"3e8-17f"' }).outcome).toBe('precondition-failed');
    expect(evaluate({ 'if-match': '"other"' }).outcome).toBe('precondition-failed');
    expect(evaluate({ 'if-unmodified-since': earlier }).outcome).toBe('precondition-failed');
    expect(evaluate({ 'if-unmodified-since': lastModified }).outcome).toBe('proceed');
    // If-Match present: If-Unmodified-Since is not evaluated.
    expect(evaluate({ 'if-match': '"3e8-17f"', 'if-unmodified-since': earlier }).outcome).toBe('proceed');
  });

  it('If-Range honours the range only for the same representation', () => {
    expect(evaluate({ 'if-range': '"3e8-17f"' })).toEqual({ outcome: 'proceed', honourRange: true });
    expect(evaluate({ 'if-range': '"old"' })).toEqual({ outcome: 'proceed', honourRange: false });
    expect(evaluate({ 'if-range': 'W/"3e8-17f"' })).toEqual({ outcome: 'proceed', honourRange: false });
    expect(evaluate({ 'if-range': lastModified })).toEqual({ outcome: 'proceed', honourRange: true });
    expect(evaluate({ 'if-range': earlier })).toEqual({ outcome: 'proceed', honourRange: false });
    expect(evaluate({ 'if-range': 'nonsense' })).toEqual({ outcome: 'proceed', honourRange: false });
  });
});

describe('parseEntityTags', () => {
  it('reads lists with weak tags, spaces and empty elements', () => {
    expect(parseEntityTags('"a", W/"b" ,, "c,d"')).toEqual(['"a"', 'W/"b"', '"c,d"']);
  });
  it('refuses unquoted tags', () => {
    expect(parseEntityTags('abc')).toBeUndefined();
    expect(parseEntityTags('"a" "b"')).toBeUndefined();
  });
});
