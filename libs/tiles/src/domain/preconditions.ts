/**
 * Conditional requests on an archive (RFC 9110 §13), evaluated in the order
 * §13.2.2 fixes: If-Match, else If-Unmodified-Since (412 when false);
 * If-None-Match, else If-Modified-Since (304 for GET and HEAD when the client's
 * copy is current); then If-Range, which decides whether a Range is honoured.
 */
export interface Validators {
  /** A strong entity tag, quoted: `"…"`. */
  etag: string;
  lastModifiedMs: number;
}

export interface ConditionalHeaders {
  'if-match'?: string;
  'if-none-match'?: string;
  'if-modified-since'?: string;
  'if-unmodified-since'?: string;
  'if-range'?: string;
}

export type Precondition = { outcome: 'precondition-failed' } | { outcome: 'not-modified' } | { outcome: 'proceed'; honourRange: boolean };

export function evaluatePreconditions(headers: ConditionalHeaders, current: Validators): Precondition {
  const lastModifiedS = Math.floor(current.lastModifiedMs / 1000);
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined) {
    if (!listMatches(ifMatch, current.etag, 'strong')) return { outcome: 'precondition-failed' };
  } else {
    const since = httpDateSeconds(headers['if-unmodified-since']);
    if (since !== undefined && lastModifiedS > since) return { outcome: 'precondition-failed' };
  }

  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    if (listMatches(ifNoneMatch, current.etag, 'weak')) return { outcome: 'not-modified' };
  } else {
    const since = httpDateSeconds(headers['if-modified-since']);
    if (since !== undefined && lastModifiedS <= since) return { outcome: 'not-modified' };
  }

  return { outcome: 'proceed', honourRange: ifRangeHolds(headers['if-range'], current.etag, lastModifiedS) };
}

/** RFC 9110 §13.1.5: a range is honoured only for the representation the client already holds part of. */
function ifRangeHolds(value: string | undefined, etag: string, lastModifiedS: number): boolean {
  if (value === undefined) return true;
  const trimmed = value.trim();
  if (trimmed.startsWith('"') || trimmed.startsWith('W/')) {
    const tags = parseEntityTags(trimmed);
    return tags !== undefined && tags.length === 1 && strongMatch(tags[0], etag);
  }
  const date = httpDateSeconds(trimmed);
  return date !== undefined && date === lastModifiedS;
}

function listMatches(value: string, etag: string, comparison: 'strong' | 'weak'): boolean {
  if (value.trim() === '*') return true;
  // An unparseable list matches nothing: the request then proceeds (If-None-Match) or fails (If-Match).
  const tags = parseEntityTags(value) ?? [];
  return tags.some((tag) => (comparison === 'strong' ? strongMatch(tag, etag) : weakMatch(tag, etag)));
}

/** The wire form of each tag in a list (`W/"x"` or `"x"`), or undefined when the list is malformed. */
export function parseEntityTags(value: string): string[] | undefined {
  const tags: string[] = [];
  const tag = /\s*((?:W\/)?"[\x21\x23-\x7e\x80-\xff]*")\s*(,|$)/y;
  let position = 0;
  while (position < value.length) {
    // Empty list elements are allowed (RFC 9110 §5.6.1).
    const comma = /\s*,/y;
    comma.lastIndex = position;
    if (comma.test(value)) {
      position = comma.lastIndex;
      continue;
    }
    tag.lastIndex = position;
    const match = tag.exec(value);
    if (!match) return value.slice(position).trim() === '' ? tags : undefined;
    tags.push(match[1]);
    position = tag.lastIndex;
  }
  return tags;
}

function strongMatch(tag: string, etag: string): boolean {
  return !tag.startsWith('W/') && tag === etag;
}

function weakMatch(tag: string, etag: string): boolean {
  return (tag.startsWith('W/') ? tag.slice(2) : tag) === (etag.startsWith('W/') ? etag.slice(2) : etag);
}

/** Whole seconds of an HTTP-date; undefined when absent or not a date (RFC 9110 §13.1.3: then it is ignored). */
function httpDateSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
