import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import {
  ChangedConcurrentlyError,
  CommandPipeline,
  ConcurrencyError,
  EmbeddedEventStore,
  EventRegistry,
  ReadModels,
  SecretBox,
  type EventStore,
} from '../../../../platform/src/index.js';
import { CertificateSigner } from '../../public/certificate-signer.js';
import { SigningKeyRing } from '../../public/signing-key-ring.js';
import { SIGNING_KEYS_STREAM } from '../../domain/signing-keys.js';
import { identityEventTypes } from '../../event-types.js';
import { rotateSigningKeys, rotateSigningKeysFromCli } from '../rotate-signing-keys/rotate-signing-keys.handler.js';
import { ensureSigningKey } from './ensure-signing-key.handler.js';

const now = new Date('2026-11-23T10:00:00.000Z');

/** One "process": its own registry, key ring and pipeline over the shared event store. */
async function processOn(events: EventStore, box: SecretBox) {
  const registry = new EventRegistry().register(...identityEventTypes);
  const ring = new SigningKeyRing(events, registry, box);
  const readModels = new ReadModels().register(SigningKeyRing.readModel, ring.follower);
  await ring.start();
  const pipeline = new CommandPipeline(events, registry, readModels, { now: () => now }, { waitMs: 2000, resolve: (token) => (token === SecretBox ? box : undefined) });
  return { ring, pipeline, registry };
}

/** Holds the first `count` reads of the signing-keys stream until all of them arrived: every process decides on the empty stream. */
function withReadBarrier(events: EventStore, count: number): { store: EventStore; appends: Array<'ok' | 'conflict'> } {
  let waiting: Array<() => void> = [];
  let remaining = count;
  const appends: Array<'ok' | 'conflict'> = [];
  const store = Object.create(events) as EventStore;
  store.readStream = async (stream, options) => {
    const read = events.readStream(stream, options);
    if (stream === SIGNING_KEYS_STREAM && remaining > 0) {
      remaining--;
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (remaining === 0) {
          waiting.forEach((release) => release());
          waiting = [];
        }
      });
    }
    return read;
  };
  store.append = async (stream, batch, expected) => {
    try {
      const result = await events.append(stream, batch, expected);
      if (stream === SIGNING_KEYS_STREAM) appends.push('ok');
      return result;
    } catch (error) {
      if (error instanceof ConcurrencyError) appends.push('conflict');
      throw error;
    }
  };
  return { store, appends };
}

describe('signing keys through the pipeline', () => {
  let events: EmbeddedEventStore;
  const box = SecretBox.fromKey(randomBytes(32));

  beforeEach(async () => {
    events = await EmbeddedEventStore.open(mkdtempSync(path.join(tmpdir(), 'identity-keys-')));
  });
  afterEach(() => events.close());

  it('two processes starting at once converge on one active key: the loser conflicts, re-reads and records nothing', async () => {
    const { store, appends } = withReadBarrier(events, 2);
    const [a, b] = await Promise.all([processOn(store, box), processOn(store, box)]);
    const [resultA, resultB] = await Promise.all([a.pipeline.run(ensureSigningKey, { type: 'EnsureSigningKey' }), b.pipeline.run(ensureSigningKey, { type: 'EnsureSigningKey' })]);
    expect([...appends].sort()).toEqual(['conflict', 'ok']);
    expect(resultA.state.active_kid).toBe(resultB.state.active_kid);
    expect([resultA.events.length, resultB.events.length].sort()).toEqual([0, 1]);
    const stored = await events.readStream(SIGNING_KEYS_STREAM);
    expect(stored.map((event) => event.type)).toEqual(['SigningKeyGenerated']);
    expect(a.ring.summary().active_kid).toBe(resultA.state.active_kid);
    expect(b.ring.summary().active_kid).toBe(resultA.state.active_kid);
    await Promise.all([a.ring.onModuleDestroy(), b.ring.onModuleDestroy()]);
  });

  it('stores the private key only sealed, serves the public key, and signs what jose verifies with the JWKS', async () => {
    const { ring, pipeline } = await processOn(events, box);
    await pipeline.run(ensureSigningKey, { type: 'EnsureSigningKey' });
    const [stored] = await events.readStream(SIGNING_KEYS_STREAM);
    const { sealed_private_key, public_jwk, kid } = stored.data as { sealed_private_key: string; public_jwk: { x: string }; kid: string };
    expect(sealed_private_key).toMatch(/^v1\./);
    expect(JSON.stringify(stored.data)).not.toMatch(/"d":|PRIVATE KEY/);
    expect(ring.jwks()).toEqual({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: public_jwk.x, kid, alg: 'EdDSA', use: 'sig' }] });

    const { token } = await new CertificateSigner(ring).sign({ iss: 'https://x.test', sub: 'sub_1', iat: 1_795_428_000, exp: 1_826_964_000, jti: 'j1', decision: 'within' }, 'proximity-certificate+jwt');
    const { payload } = await jwtVerify(token, createLocalJWKSet(ring.jwks()), { typ: 'proximity-certificate+jwt', currentDate: new Date('2026-12-01T00:00:00Z') });
    expect(payload).toMatchObject({ jti: 'j1', decision: 'within' });
    await ring.onModuleDestroy();
  });

  it('a process whose DATA_ENCRYPTION_KEY differs still serves the JWKS but signs nothing: 503 SIGNING_KEY_UNAVAILABLE', async () => {
    const first = await processOn(events, box);
    await first.pipeline.run(ensureSigningKey, { type: 'EnsureSigningKey' });
    const other = await processOn(events, SecretBox.fromKey(randomBytes(32)));
    expect(other.ring.jwks().keys).toHaveLength(1);
    await expect(new CertificateSigner(other.ring).sign({}, 'proximity-certificate+jwt')).rejects.toMatchObject({ code: 'SIGNING_KEY_UNAVAILABLE', status: 503 });
    await Promise.all([first.ring.onModuleDestroy(), other.ring.onModuleDestroy()]);
  });

  it('two rotations at once: one rotates, the other answers 409 and rotates nothing more', async () => {
    const { ring, pipeline } = await processOn(events, box);
    await pipeline.run(ensureSigningKey, { type: 'EnsureSigningKey' });
    const { store, appends } = withReadBarrier(events, 2);
    const racer = await processOn(store, box);
    const outcomes = await Promise.allSettled([
      racer.pipeline.run(rotateSigningKeys, { type: 'RotateSigningKeys', rotated_by: 'admin:a' }),
      racer.pipeline.run(rotateSigningKeys, { type: 'RotateSigningKeys', rotated_by: 'admin:b' }),
    ]);
    expect([...appends].sort()).toEqual(['conflict', 'ok']);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({ reason: expect.any(ChangedConcurrentlyError) });
    expect((await events.readStream(SIGNING_KEYS_STREAM)).map((event) => event.type)).toEqual(['SigningKeyGenerated', 'SigningKeyGenerated', 'SigningKeyRotated']);
    await ring.follower.waitFor((await events.readStream(SIGNING_KEYS_STREAM)).at(-1)!.position, 2000);
    expect(ring.jwks().keys).toHaveLength(2);
    await Promise.all([ring.onModuleDestroy(), racer.ring.onModuleDestroy()]);
  });

  it('the CLI rotation reaches a running process’s ring: it signs with the new key, the old one stays in its JWKS', async () => {
    const running = await processOn(events, box);
    await running.pipeline.run(ensureSigningKey, { type: 'EnsureSigningKey' });
    const before = running.ring.summary().active_kid;
    const rotated = await rotateSigningKeysFromCli({ events, registry: running.registry, secretBox: box, clock: { now: () => now }, rotatedBy: 'ops:cli', waitMs: 2000 });
    expect(rotated).toMatchObject({ retired_kid: before, keys: [{ kid: before, status: 'retired' }, { kid: rotated.active_kid, status: 'active' }] });
    const last = (await events.readStream(SIGNING_KEYS_STREAM)).at(-1)!;
    expect(last.data).toMatchObject({ from_kid: before, to_kid: rotated.active_kid, rotated_by: 'ops:cli' });
    await running.ring.follower.waitFor(last.position, 2000);
    expect((await new CertificateSigner(running.ring).sign({}, 'proximity-certificate+jwt')).kid).toBe(rotated.active_kid);
    expect(running.ring.jwks().keys.map((key) => key.kid)).toEqual([rotated.active_kid, before]);
    await running.ring.onModuleDestroy();
  });
});
