#!/usr/bin/env node
// Checks an access-trail export bundle (GET /v2/banking/audit-log/export, docs/adr/0023)
// against the service's JWKS alone: node tools/verify-audit-bundle.mjs bundle.json[.gz] jwks.json
// Node built-ins only, no code of the service: copy this file anywhere and run it.
// Exit 0: intact; 1: the first bad entry or checkpoint is named; 64: bad usage.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const GENESIS = '0'.repeat(64);
const LINK_FIELDS = new Set(['seq', 'prev_hash', 'hash']);

/** Keys sorted at every level; primitives as JSON.stringify writes them. */
function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** hash = sha256(prev_hash "\n" seq "\n" canonical JSON of the entry without its link fields), hex. */
function entryHash(entry) {
  const content = Object.fromEntries(Object.entries(entry).filter(([key]) => !LINK_FIELDS.has(key)));
  return createHash('sha256').update(`${entry.prev_hash}\n${entry.seq}\n${canonicalJson(content)}`).digest('hex');
}

/** Verifies a compact JWS (EdDSA, Ed25519) with the JWKS key its header names; returns its claims. */
function verifyCheckpoint(token, keys) {
  const parts = String(token).split('.');
  if (parts.length !== 3) throw new Error('not a compact JWS');
  const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
  if (header.alg !== 'EdDSA') throw new Error(`unexpected alg ${header.alg}`);
  const jwk = keys.find((key) => key.kid === header.kid);
  if (!jwk) throw new Error(`kid ${header.kid} is not in the JWKS`);
  const publicKey = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  const ok = verify(null, Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2], 'base64url'));
  if (!ok) throw new Error('signature does not verify');
  return JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
}

function describe(entry, index) {
  return `entry #${index} (seq ${entry?.seq}, request ${entry?.request_id ?? '?'}, at ${entry?.at ?? '?'})`;
}

/** Returns { ok: true, ... } or { ok: false, error } naming the first bad entry or checkpoint. */
export function verifyBundle(bundle, jwks) {
  const keys = Array.isArray(jwks?.keys) ? jwks.keys : [];
  if (bundle?.format !== 'audit-bundle/1') return { ok: false, error: `unknown bundle format ${bundle?.format}` };
  const entries = Array.isArray(bundle.entries) ? bundle.entries : [];
  const signed = [];
  const tokens = [...(bundle.anchor ? [bundle.anchor.token] : []), ...(bundle.checkpoints ?? []).map((c) => c.token)];
  for (const [index, token] of tokens.entries()) {
    let claims;
    try {
      claims = verifyCheckpoint(token, keys);
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
    if (entry.seq !== expectedSeq) return { ok: false, error: `${describe(entry, index)}: sequence gap or reorder: expected seq ${expectedSeq}` };
    if (entry.prev_hash !== expectedPrev) return { ok: false, error: `${describe(entry, index)}: does not link to the entry before it (one was removed or reordered)` };
    if (entryHash(entry) !== entry.hash) return { ok: false, error: `${describe(entry, index)}: hash mismatch (the entry was edited)` };
    bySeq.set(entry.seq, entry.hash);
    expectedSeq = entry.seq + 1;
    expectedPrev = entry.hash;
  }
  const lastSeq = expectedSeq - 1;
  for (const claims of signed.slice(bundle.anchor ? 1 : 0)) {
    if (claims.seq > lastSeq) return { ok: false, error: `truncated: a checkpoint signed at ${claims.signed_at} covers seq ${claims.seq}, but the entries end at seq ${lastSeq}` };
    if (bySeq.has(claims.seq) && bySeq.get(claims.seq) !== claims.hash) return { ok: false, error: `${describe(entries.find((e) => e.seq === claims.seq), entries.findIndex((e) => e.seq === claims.seq))}: differs from the checkpoint signed at ${claims.signed_at}` };
  }
  const from = bundle.from ? Date.parse(bundle.from) : -Infinity;
  const to = bundle.to ? Date.parse(bundle.to) : Infinity;
  const inRange = entries.filter((entry) => Date.parse(entry.at) >= from && Date.parse(entry.at) < to).length;
  const covered = signed.length > (bundle.anchor ? 1 : 0) ? Math.max(...signed.map((c) => c.seq)) : bundle.anchor ? bundle.anchor.seq : -1;
  return { ok: true, stream: bundle.stream, entries: entries.length, in_range: inRange, checkpoints: signed.length, unanchored_tail: Math.max(0, lastSeq - covered) };
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  const [bundlePath, jwksPath] = process.argv.slice(2);
  if (!bundlePath || !jwksPath) {
    process.stderr.write('usage: node tools/verify-audit-bundle.mjs bundle.json jwks.json\n');
    process.exit(64);
  }
  let verdict;
  try {
    // The API answers in its envelope ({"data": …}); the bare document is accepted too.
    const unwrap = (document) => (document && typeof document === 'object' && 'data' in document && !('format' in document) && !('keys' in document) ? document.data : document);
    // An archived month (docs/adr/0024) is the same bundle gzipped.
    const raw = readFileSync(bundlePath);
    const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
    verdict = verifyBundle(unwrap(JSON.parse(text)), unwrap(JSON.parse(readFileSync(jwksPath, 'utf8'))));
  } catch (error) {
    verdict = { ok: false, error: `unreadable input: ${error.message}` };
  }
  if (verdict.ok) {
    process.stdout.write(
      `OK ${verdict.stream}: ${verdict.entries} entries verified (${verdict.in_range} in range), ${verdict.checkpoints} signed checkpoints` +
        (verdict.unanchored_tail > 0 ? `; the newest ${verdict.unanchored_tail} entries are after the last checkpoint (truncation there is not detectable yet)` : verdict.entries > 0 ? '; signed to its last entry' : '') +
        '\n',
    );
    process.exit(0);
  }
  process.stdout.write(`BAD: ${verdict.error}\n`);
  process.exit(1);
}
