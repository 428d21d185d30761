import { createHash, hash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** What a request's X-API-Key is, worked out once per request: the per-IP throttle and the guard both ask. */
export interface PresentedKey {
  key: string;
  /** SHA-256 of the key, lowercase hex: `hashKey`, the key directory's lookup key. */
  hash: string;
  /** It is the operator key (ADMIN_API_KEY), compared in constant time on the digests. */
  operator: boolean;
}

/** Per request; a request object is let go with its answer, and so is its entry. */
const presentedKeys = new WeakMap<FastifyRequest, PresentedKey | null>();

/**
 * Reads X-API-Key with one SHA-256 per request (there were six: the operator
 * comparison hashed both sides in the throttle and in the guard, and each
 * hashed the key again for the lookup). The operator key's digest is made once,
 * here; comparing digests with `timingSafeEqual` keeps the comparison
 * independent of where the secrets differ and of their lengths, as before.
 */
export class KeyReader {
  private readonly operatorDigest?: Buffer;

  constructor(operatorKey: string | undefined) {
    this.operatorDigest = operatorKey ? createHash('sha256').update(operatorKey).digest() : undefined;
  }

  /** The request's key, or null without one (an empty header is none). */
  read(request: FastifyRequest): PresentedKey | null {
    const known = presentedKeys.get(request);
    if (known !== undefined) return known;
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    let presented: PresentedKey | null = null;
    if (key) {
      const digest = hash('sha256', key, 'buffer');
      presented = { key, hash: digest.toString('hex'), operator: this.operatorDigest !== undefined && timingSafeEqual(digest, this.operatorDigest) };
    }
    presentedKeys.set(request, presented);
    return presented;
  }
}
