import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import type { SecretBox } from '../../../platform/src/index.js';
import type { NewSigningKey, PublicJwk } from '../domain/signing-keys.js';

/** Associated data of a sealed private key: a sealed key moved under another kid does not open. */
function aad(kid: string): string {
  return `identity signing key|${kid}`;
}

/** A new Ed25519 key pair: the public half as a JWK, its RFC 7638 thumbprint as the kid, the private half sealed. */
export async function newSigningKey(box: SecretBox): Promise<NewSigningKey> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = await exportJWK(publicKey);
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new Error('an Ed25519 key did not export as an OKP JWK');
  const public_jwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: jwk.x };
  const kid = await calculateJwkThumbprint(public_jwk);
  const sealed_private_key = box.seal(privateKey.export({ format: 'der', type: 'pkcs8' }), aad(kid));
  return { kid, public_jwk, sealed_private_key };
}

/** The private key of `kid`; throws SealedSecretError when the SecretBox cannot open it. */
export function openPrivateKey(box: SecretBox, kid: string, sealed: string): KeyObject {
  return createPrivateKey({ key: box.openBytes(sealed, aad(kid)), format: 'der', type: 'pkcs8' });
}
