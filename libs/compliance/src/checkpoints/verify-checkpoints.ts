import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import type { ChainEntry } from '../../../audit/src/index.js';
import type { CheckpointClaims, SignedHead } from '../domain/checkpoint.js';

export type CheckpointVerdict = { ok: true; checkpoints: number; covered: number } | { ok: false; reason: string };

/** The claims of a compact JWS (EdDSA) when it verifies with the JWKS key its header names; throws otherwise. */
export function verifyCheckpointToken(token: string, keys: ReadonlyArray<Pick<JsonWebKey, 'kty' | 'crv' | 'x'> & { kid?: string }>): CheckpointClaims {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) throw new Error('not a compact JWS');
  const { alg, kid } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string; kid?: string };
  if (alg !== 'EdDSA') throw new Error(`unexpected alg ${alg}`);
  const jwk = keys.find((key) => key.kid === kid);
  if (!jwk) throw new Error(`kid ${kid} is not in the JWKS`);
  const publicKey = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  if (!verify(null, Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))) throw new Error('signature does not verify');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CheckpointClaims;
}

/**
 * A whole chain against its signed heads (`audit:verify`): every signature
 * verifies, its claims are the stored ones, and the chain still holds the
 * signed entry with the signed hash. Entries removed from the end up to the
 * latest checkpoint (truncation) fail here; the chain check alone cannot see it.
 */
export function verifyCheckpoints(stream: string, chain: ReadonlyArray<ChainEntry>, heads: readonly SignedHead[], keys: ReadonlyArray<Pick<JsonWebKey, 'kty' | 'crv' | 'x'> & { kid?: string }>): CheckpointVerdict {
  for (const head of heads) {
    let claims: CheckpointClaims;
    try {
      claims = verifyCheckpointToken(head.token, keys);
    } catch (error) {
      return { ok: false, reason: `checkpoint of seq ${head.seq} signed at ${head.signed_at}: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (claims.stream !== stream || claims.seq !== head.seq || claims.hash !== head.hash) return { ok: false, reason: `checkpoint of seq ${head.seq}: the stored event differs from what was signed` };
    const entry = chain[claims.seq];
    if (!entry) return { ok: false, reason: `truncated: the checkpoint signed at ${claims.signed_at} covers seq ${claims.seq}, but the chain ends at seq ${chain.length - 1}` };
    if (entry.seq !== claims.seq || entry.hash !== claims.hash) return { ok: false, reason: `entry ${claims.seq} differs from the checkpoint signed at ${claims.signed_at}` };
  }
  return { ok: true, checkpoints: heads.length, covered: heads.reduce((max, head) => Math.max(max, head.seq), -1) };
}
