import { CompactSign } from 'jose';
import { generateKeyPairSync } from 'node:crypto';
import type { Jwks, SigningKeys } from '../../../../identity/src/index.js';

/** The SigningKeys port with one fixed Ed25519 key (`kid`), for specs that sign checkpoints without the identity context; `jwks` is its JWK Set. */
export function fixedSigningKeys(kid = 'k1'): SigningKeys & { jwks: Jwks } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  const jwks: Jwks = { keys: [{ kty: 'OKP', crv: 'Ed25519', x: x!, kid, alg: 'EdDSA', use: 'sig' }] };
  return {
    jwks,
    jwksAt: () => Promise.resolve(jwks),
    whenActive: () => Promise.resolve(true),
    signJson: async (document, typ) => ({ kid, jws: await new CompactSign(new TextEncoder().encode(JSON.stringify(document))).setProtectedHeader({ alg: 'EdDSA', kid, typ }).sign(privateKey) }),
  };
}
