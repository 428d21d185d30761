import type { SigningKeyRing } from '../../signing/signing-key-ring.js';

/** decisions.md: the public JWKS, bare (`{"keys": [...]}`), every key ever used to sign, retired ones included. */
export function getJwks(ring: Pick<SigningKeyRing, 'jwks'>) {
  return ring.jwks();
}
