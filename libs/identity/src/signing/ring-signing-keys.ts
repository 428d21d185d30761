import { CompactSign } from 'jose';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { StreamNotFoundError, type EventRegistry, type EventStore, type JsonLogger, type SecretBox } from '../../../platform/src/index.js';
import { SIGNING_ALGORITHM } from '../domain/certificates.js';
import { evolveSigningKeys, initialSigningKeysState, SIGNING_KEYS_STREAM, type SigningKeyEvent } from '../domain/signing-keys.js';
import { SigningKeyRing } from '../public/signing-key-ring.js';
import type { Jwks, SigningKeys } from './signing-keys.port.js';

/** How often `whenActive` looks again. */
const POLL_MS = 20;

/**
 * The SigningKeys of a process that signs for another context: a key ring of
 * its own (a follower of the signing-keys stream, a handful of events, read
 * from the beginning when the application starts), so a rotation done
 * anywhere reaches it like any other signer; the JWKS at an instant is folded
 * from the stream itself.
 */
export class RingSigningKeys implements SigningKeys, OnApplicationBootstrap, OnModuleDestroy {
  private readonly ring: SigningKeyRing;
  private started?: Promise<void>;

  constructor(
    private readonly events: EventStore,
    registry: EventRegistry,
    box: SecretBox,
    logger?: Pick<JsonLogger, 'error' | 'warn'>,
  ) {
    this.ring = new SigningKeyRing(events, registry, box, logger);
  }

  /** Before the first request: the ring has read the stream. */
  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.started) return;
    await this.started.catch(() => undefined);
    await this.ring.onModuleDestroy();
  }

  async jwksAt(at: Date = new Date()): Promise<Jwks> {
    let state = initialSigningKeysState;
    try {
      for (const event of await this.events.readStream(SIGNING_KEYS_STREAM)) state = evolveSigningKeys(state, { type: event.type, data: event.data } as SigningKeyEvent);
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    const until = at.getTime();
    const keys = state.keys.filter((key) => Date.parse(key.generated_at) <= until).sort((a, b) => b.generated_at.localeCompare(a.generated_at));
    return { keys: keys.map((key) => ({ ...key.public_jwk, kid: key.kid, alg: SIGNING_ALGORITHM, use: 'sig' })) };
  }

  async signJson(document: unknown, typ: string): Promise<{ kid: string; jws: string }> {
    await this.start();
    const { kid, privateKey } = this.ring.active();
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(document))).setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ }).sign(privateKey);
    return { kid, jws };
  }

  async whenActive(timeoutMs: number): Promise<boolean> {
    await this.start();
    for (let waited = 0; this.ring.summary().active_kid === null && waited < timeoutMs; waited += POLL_MS) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    return this.ring.summary().active_kid !== null;
  }

  /** Starts the ring once; a start that failed (the store down) is tried again by the next call. */
  private start(): Promise<void> {
    this.started ??= this.ring.start().catch((error: unknown) => {
      this.started = undefined;
      throw error;
    });
    return this.started;
  }
}
