import { StreamNotFoundError, type EventStore } from '../../../platform/src/index.js';
import { evolveSigningKeys, initialSigningKeysState, SIGNING_KEYS_STREAM, type SigningKeyEvent } from '../../../identity/src/index.js';

/** Every public key the identity context ever generated, as the JWKS serves them: what `audit:verify` checks signatures with, no secret needed. */
export async function jwksFromLog(events: EventStore): Promise<{ keys: Array<{ kty: string; crv: string; x: string; kid: string; alg: 'EdDSA'; use: 'sig' }> }> {
  let state = initialSigningKeysState;
  try {
    for (const event of await events.readStream(SIGNING_KEYS_STREAM)) state = evolveSigningKeys(state, { type: event.type, data: event.data } as SigningKeyEvent);
  } catch (error) {
    if (!(error instanceof StreamNotFoundError)) throw error;
  }
  return { keys: state.keys.map((key) => ({ ...key.public_jwk, kid: key.kid, alg: 'EdDSA', use: 'sig' })) };
}
