// The offline checks of tools/verify-audit-bundle.mjs, in the browser: WebCrypto (SHA-256, Ed25519) instead of
// node:crypto, DecompressionStream instead of zlib. Same rules, same order, same messages, so the page and the tool
// agree on every bundle (test/workbench-verify.spec.ts holds them to it). No DOM here: Node runs this file too.

const GENESIS = '0'.repeat(64);
const LINK_FIELDS = new Set(['seq', 'prev_hash', 'hash']);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Keys sorted at every level; primitives as JSON.stringify writes them. */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

async function sha256Hex(text) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** hash = sha256(prev_hash "\n" seq "\n" canonical JSON of the entry without its link fields), hex. */
async function entryHash(entry) {
  const content = Object.fromEntries(Object.entries(entry).filter(([key]) => !LINK_FIELDS.has(key)));
  return sha256Hex(`${entry.prev_hash}\n${entry.seq}\n${canonicalJson(content)}`);
}

const BASE64 = new Map([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'].map((c, i) => [c, i]));
BASE64.set('-', 62).set('_', 63).set('+', 62).set('/', 63);

/** Base64url to bytes, as Node's Buffer.from(text, 'base64url') reads it: both alphabets, stops at "=", other characters skipped. */
export function base64UrlBytes(text) {
  const bytes = [];
  let bits = 0;
  let count = 0;
  for (const char of String(text)) {
    if (char === '=') break;
    const value = BASE64.get(char);
    if (value === undefined) continue;
    bits = (bits << 6) | value;
    count += 6;
    if (count >= 8) {
      count -= 8;
      bytes.push((bits >> count) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

/** Verifies a compact JWS (EdDSA, Ed25519) with the JWKS key its header names; returns its claims. */
export async function verifyCompactJws(token, keys) {
  const parts = String(token).split('.');
  if (parts.length !== 3) throw new Error('not a compact JWS');
  const header = JSON.parse(decoder.decode(base64UrlBytes(parts[0])));
  if (header.alg !== 'EdDSA') throw new Error(`unexpected alg ${header.alg}`);
  const jwk = keys.find((key) => key.kid === header.kid);
  if (!jwk) throw new Error(`kid ${header.kid} is not in the JWKS`);
  const publicKey = await crypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
  const ok = await crypto.subtle.verify({ name: 'Ed25519' }, publicKey, base64UrlBytes(parts[2]), encoder.encode(`${parts[0]}.${parts[1]}`));
  if (!ok) throw new Error('signature does not verify');
  return { header, claims: JSON.parse(decoder.decode(base64UrlBytes(parts[1]))) };
}

function describe(entry, index) {
  return `entry #${index} (seq ${entry?.seq}, request ${entry?.request_id ?? '?'}, at ${entry?.at ?? '?'})`;
}

/** Returns { ok: true, ... } or { ok: false, error } naming the first bad entry or checkpoint: tools/verify-audit-bundle.mjs's verifyBundle. */
export async function verifyBundle(bundle, jwks) {
  const keys = Array.isArray(jwks?.keys) ? jwks.keys : [];
  if (bundle?.format !== 'audit-bundle/1') return { ok: false, error: `unknown bundle format ${bundle?.format}` };
  const entries = Array.isArray(bundle.entries) ? bundle.entries : [];
  const signed = [];
  const tokens = [...(bundle.anchor ? [bundle.anchor.token] : []), ...(bundle.checkpoints ?? []).map((c) => c.token)];
  for (const [index, token] of tokens.entries()) {
    let claims;
    try {
      claims = (await verifyCompactJws(token, keys)).claims;
    } catch (error) {
      return { ok: false, error: `checkpoint #${index}: ${error.message}` };
    }
    if (claims.typ !== 'audit-checkpoint' || claims.stream !== bundle.stream) return { ok: false, error: `checkpoint #${index}: signs ${claims.stream}, not ${bundle.stream}` };
    signed.push(claims);
  }
  // Where the entries start: just after a signed head, or at the genesis.
  let expectedSeq = 0;
  let expectedPrev = GENESIS;
  if (bundle.anchor) {
    const anchor = signed[0];
    if (anchor.seq !== bundle.anchor.seq || anchor.hash !== bundle.anchor.hash) return { ok: false, error: 'the anchor does not match its signature' };
    expectedSeq = anchor.seq + 1;
    expectedPrev = anchor.hash;
  }
  const bySeq = new Map();
  for (const [index, entry] of entries.entries()) {
    if (entry.seq !== expectedSeq) return { ok: false, error: `${describe(entry, index)}: sequence gap or reorder: expected seq ${expectedSeq}`, index };
    if (entry.prev_hash !== expectedPrev) return { ok: false, error: `${describe(entry, index)}: does not link to the entry before it (one was removed or reordered)`, index };
    if ((await entryHash(entry)) !== entry.hash) return { ok: false, error: `${describe(entry, index)}: hash mismatch (the entry was edited)`, index };
    bySeq.set(entry.seq, entry.hash);
    expectedSeq = entry.seq + 1;
    expectedPrev = entry.hash;
  }
  const lastSeq = expectedSeq - 1;
  for (const claims of signed.slice(bundle.anchor ? 1 : 0)) {
    if (claims.seq > lastSeq) return { ok: false, error: `truncated: a checkpoint signed at ${claims.signed_at} covers seq ${claims.seq}, but the entries end at seq ${lastSeq}` };
    if (bySeq.has(claims.seq) && bySeq.get(claims.seq) !== claims.hash) {
      const index = entries.findIndex((e) => e.seq === claims.seq);
      return { ok: false, error: `${describe(entries.find((e) => e.seq === claims.seq), index)}: differs from the checkpoint signed at ${claims.signed_at}`, index };
    }
  }
  const from = bundle.from ? Date.parse(bundle.from) : -Infinity;
  const to = bundle.to ? Date.parse(bundle.to) : Infinity;
  const inRange = entries.filter((entry) => Date.parse(entry.at) >= from && Date.parse(entry.at) < to).length;
  const covered = signed.length > (bundle.anchor ? 1 : 0) ? Math.max(...signed.map((c) => c.seq)) : bundle.anchor ? bundle.anchor.seq : -1;
  return { ok: true, stream: bundle.stream, entries: entries.length, in_range: inRange, checkpoints: signed.length, unanchored_tail: Math.max(0, lastSeq - covered) };
}

/** The line the tool prints for a verdict ("OK …" or "BAD: …"), without its newline. */
export function verdictLine(verdict) {
  if (!verdict.ok) return `BAD: ${verdict.error}`;
  return (
    `OK ${verdict.stream}: ${verdict.entries} entries verified (${verdict.in_range} in range), ${verdict.checkpoints} signed checkpoints` +
    (verdict.unanchored_tail > 0 ? `; the newest ${verdict.unanchored_tail} entries are after the last checkpoint (truncation there is not detectable yet)` : verdict.entries > 0 ? '; signed to its last entry' : '')
  );
}

/** The API answers in its envelope ({"data": …}); the bare document is accepted too. */
export function unwrap(document) {
  return document && typeof document === 'object' && 'data' in document && !('format' in document) && !('keys' in document) ? document.data : document;
}

/** A file's bytes as text; an archived month (docs/adr/0024) is the same bundle gzipped. */
export async function textOf(bytes) {
  const raw = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (raw[0] === 0x1f && raw[1] === 0x8b) {
    const stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream('gzip'));
    return decoder.decode(new Uint8Array(await new Response(stream).arrayBuffer()));
  }
  return decoder.decode(raw);
}

/** The tool's main, on a file's bytes and a JWKS document: its verdict, with `unreadable input` when either does not parse. */
export async function verifyBundleFile(bytes, jwksDocument) {
  try {
    return await verifyBundle(unwrap(JSON.parse(await textOf(bytes))), unwrap(jwksDocument));
  } catch (error) {
    return { ok: false, error: `unreadable input: ${error.message}` };
  }
}

/**
 * A customer's copy (POST /v2/consent/access-request: {document, kid, jws}):
 * the JWS verifies with the JWKS (typ customer-copy) and its payload is the
 * document beside it, field for field.
 */
export async function verifyCustomerCopy(copy, jwks) {
  const keys = Array.isArray(jwks?.keys) ? jwks.keys : [];
  let verified;
  try {
    verified = await verifyCompactJws(copy?.jws, keys);
  } catch (error) {
    return { ok: false, error: `the copy's signature: ${error.message}` };
  }
  if (verified.header.typ !== 'customer-copy') return { ok: false, error: `the signature is a ${verified.header.typ}, not a customer-copy` };
  if (canonicalJson(verified.claims) !== canonicalJson(copy.document)) return { ok: false, error: 'the document differs from the one the signature covers (edited)' };
  return { ok: true, kid: verified.header.kid, customer_id: copy.document?.customer_id, account_id: copy.document?.account_id, generated_at: copy.document?.generated_at };
}

/** A signed artefact (consent receipt, certificate): its signature and type, with the claims it carries. */
export async function verifySigned(token, jwks, typ) {
  const keys = Array.isArray(jwks?.keys) ? jwks.keys : [];
  try {
    const { header, claims } = await verifyCompactJws(token, keys);
    if (typ && header.typ !== typ) return { ok: false, error: `a ${header.typ}, not a ${typ}` };
    return { ok: true, kid: header.kid, typ: header.typ, claims };
  } catch (error) {
    return { ok: false, error: error.message };
  }
}
