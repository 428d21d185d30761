import { SignJWT, type JWTPayload } from 'jose';
import { SIGNING_ALGORITHM } from '../domain/certificates.js';
import type { SigningKeyRing } from './signing-key-ring.js';

export interface SignedArtefact {
  token: string;
  kid: string;
}

/**
 * Signs certificates and receipts with the active key (jose: compact JWS,
 * `alg: EdDSA`, the key's `kid` and the artefact's `typ` in the protected
 * header). The claims come whole from the domain, registered ones included.
 */
export class CertificateSigner {
  constructor(private readonly ring: Pick<SigningKeyRing, 'active'>) {}

  async sign(claims: object, typ: string): Promise<SignedArtefact> {
    const { kid, privateKey } = this.ring.active();
    const token = await new SignJWT({ ...claims } as JWTPayload).setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ }).sign(privateKey);
    return { token, kid };
  }
}
