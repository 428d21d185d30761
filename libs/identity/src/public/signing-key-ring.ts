import type { KeyObject } from 'node:crypto';
import type { OnModuleDestroy } from '@nestjs/common';
import { LogFollower, type EventRegistry, type EventStore, type FollowedView, type JsonLogger, type RecordedEvent, type SecretBox } from '../../../platform/src/index.js';
import { SigningKeyUnavailableError } from '../domain/errors.js';
import { SIGNING_ALGORITHM } from '../domain/certificates.js';
import { evolveSigningKeys, initialSigningKeysState, SIGNING_KEY_EVENT_TYPES, SIGNING_KEYS_STREAM, type PublicJwk, type SigningKeyEvent, type SigningKeysState } from '../domain/signing-keys.js';
import { openPrivateKey } from '../signing/signing-key-material.js';

/** A key as GET /v2/.well-known/jwks.json serves it (RFC 7517, RFC 8037). */
export interface ServedJwk extends PublicJwk {
  kid: string;
  alg: typeof SIGNING_ALGORITHM;
  use: 'sig';
}

export interface SigningKeySummary {
  kid: string;
  status: 'active' | 'retired';
  generated_at: string;
  retired_at: string | null;
}

/**
 * The signing keys, held in memory and kept current by a LogFollower over
 * the signing-keys stream (read from the beginning before the first request:
 * it is a handful of events). Every process that signs has one, so a
 * rotation done anywhere (another instance, the ops CLI) reaches it within
 * the follower's lag; a command that rotates waits for it (`signing_keys`).
 *
 * Private keys are opened with the SecretBox only when first used for
 * signing, and only the active one.
 */
export class SigningKeyRing implements FollowedView, OnModuleDestroy {
  static readonly readModel = 'signing_keys';
  readonly follower: LogFollower;
  private state: SigningKeysState = initialSigningKeysState;
  private readonly opened = new Map<string, KeyObject>();

  constructor(
    events: EventStore,
    registry: EventRegistry,
    private readonly box: SecretBox,
    private readonly logger?: Pick<JsonLogger, 'error' | 'warn'>,
  ) {
    this.follower = new LogFollower(
      events,
      registry,
      undefined,
      { name: 'signing key ring', streamPrefixes: [SIGNING_KEYS_STREAM], handles: SIGNING_KEY_EVENT_TYPES, start: { from: 'beginning' }, sink: { handle: (event) => this.apply(event) } },
      logger,
    );
  }

  start(): Promise<void> {
    return this.follower.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.follower.stop();
  }

  /** Every public key ever generated, the active one first, then newest first: retired keys stay so old artefacts verify. */
  jwks(): { keys: ServedJwk[] } {
    const ordered = [...this.state.keys].sort((a, b) => Number(b.kid === this.state.active_kid) - Number(a.kid === this.state.active_kid) || b.generated_at.localeCompare(a.generated_at));
    return { keys: ordered.map((key) => ({ ...key.public_jwk, kid: key.kid, alg: SIGNING_ALGORITHM, use: 'sig' })) };
  }

  summary(): { active_kid: string | null; keys: SigningKeySummary[] } {
    return {
      active_kid: this.state.active_kid,
      keys: this.state.keys.map((key) => ({ kid: key.kid, status: key.kid === this.state.active_kid ? 'active' : 'retired', generated_at: key.generated_at, retired_at: key.retired_at })),
    };
  }

  /** The key new artefacts are signed with; 503 SIGNING_KEY_UNAVAILABLE when there is none or it cannot be opened. */
  active(): { kid: string; privateKey: KeyObject } {
    const kid = this.state.active_kid;
    if (kid === null) throw new SigningKeyUnavailableError('no signing key has been generated yet; the service is still starting');
    let privateKey = this.opened.get(kid);
    if (!privateKey) {
      const record = this.state.keys.find((key) => key.kid === kid)!;
      try {
        privateKey = openPrivateKey(this.box, kid, record.sealed_private_key);
      } catch (error) {
        // The message names the problem (e.g. another DATA_ENCRYPTION_KEY), never the key.
        this.logger?.error({ msg: 'the active signing key cannot be opened', kid, err: error instanceof Error ? error.message : String(error) });
        throw new SigningKeyUnavailableError('the active signing key cannot be opened on this instance');
      }
      this.opened.set(kid, privateKey);
    }
    return { kid, privateKey };
  }

  waitFor(position: bigint, timeoutMs: number): Promise<void> {
    return this.follower.waitFor(position, timeoutMs);
  }

  private apply(event: RecordedEvent): void {
    this.state = evolveSigningKeys(this.state, { type: event.type, data: event.data } as SigningKeyEvent);
    // A retired key signs nothing more: drop its opened private half.
    for (const kid of this.opened.keys()) if (kid !== this.state.active_kid) this.opened.delete(kid);
  }
}
