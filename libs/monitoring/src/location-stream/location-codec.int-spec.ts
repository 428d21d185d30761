import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CommandPipeline,
  EmbeddedDataKeyVault,
  EmbeddedEventStore,
  EmbeddedReadStore,
  EventRegistry,
  ReadModels,
  SecretBox,
  type EventTypeDefinition,
} from '../../../platform/src/index.js';
import { grantConsent } from '../commands/grant-consent/grant-consent.handler.js';
import { recordPings } from '../commands/record-pings/record-pings.handler.js';
import { ConsentRequiredError, locationStream, pingOutcomes, type IndexedPing } from '../domain/location.js';
import { monitoringEventTypes } from '../event-types.js';
import { FenceIndex } from '../geofences/public/fence-index.js';
import { ConsentProofCodec } from '../consent-record/consent-proof-codec.js';
import { ConsentRecordSealing } from '../consent-record/consent-record-sealing.js';
import { CustomerPseudonyms } from './customer-pseudonyms.js';
import { LocationCaches } from './location-caches.js';
import { LocationCodec } from './location-codec.js';
import { LocationSealing } from './location-sealing.js';

const ACCOUNT = 'acct_codec';
const now = new Date('2026-11-22T12:00:00.000Z');
const at = (minute: number) => `2026-11-22T11:${String(minute).padStart(2, '0')}:00.000Z`;
const pings = (...minutes: number[]): IndexedPing[] =>
  minutes.map((minute, index) => ({ index, lat: 5.55 + minute * 1e-5, lng: -0.2, accuracy_m: null, device_id: null, recorded_at: at(minute) }));

/** The location stream's codec under the real pipeline, on embedded adapters. */
async function setUp(types: EventTypeDefinition[] = monitoringEventTypes) {
  const dir = mkdtempSync(path.join(tmpdir(), 'location-codec-'));
  const events = await EmbeddedEventStore.open(path.join(dir, 'events'));
  const readStore = await EmbeddedReadStore.open(path.join(dir, 'read-models'));
  const vault = await EmbeddedDataKeyVault.open(dir, SecretBox.fromKey(Buffer.alloc(32, 3)));
  const pseudonyms = CustomerPseudonyms.fromSecretBox(SecretBox.fromKey(Buffer.alloc(32, 4)));
  const sealing = new LocationSealing(vault);
  const caches = new LocationCaches(readStore, pseudonyms);
  const deps = new Map<unknown, unknown>([
    [LocationCodec, new LocationCodec(sealing, caches, pseudonyms)],
    [LocationSealing, sealing],
    [LocationCaches, caches],
    [CustomerPseudonyms, pseudonyms],
    [FenceIndex, new FenceIndex()],
    [ConsentRecordSealing, new ConsentRecordSealing(vault, pseudonyms)],
    [ConsentProofCodec, new ConsentProofCodec(vault)],
  ]);
  const registry = new EventRegistry().register(...types);
  // The codec is under test, not the drift projection (none runs here): its wait answers at once.
  const readModels = new ReadModels().register('drift_state', { waitFor: async () => undefined }).register('consents', { waitFor: async () => undefined });
  const commands = new CommandPipeline(events, registry, readModels, { now: () => now }, { waitMs: 100, resolve: (token) => deps.get(token) });
  deps.set(CommandPipeline, commands);
  const grant = (customer: string) => commands.run(grantConsent, { type: 'GrantConsent', account_id: ACCOUNT, customer_id: customer, purpose: 'unspecified', scope: ['location'] });
  const record = async (customer: string, batch: IndexedPing[]) => {
    const result = await commands.run(recordPings, { type: 'RecordPings', account_id: ACCOUNT, customer_id: customer, pings: batch });
    const { prepared } = result.command;
    if (!prepared?.collecting) throw new Error('not collecting');
    return { ...result, outcomes: pingOutcomes(prepared.pings, result.previous, result.events) };
  };
  const close = async () => {
    await vault.close();
    await readStore.close();
    await events.close();
  };
  return { dir, events, readStore, vault, sealing, caches, pseudonyms, commands, grant, record, close };
}

describe('location stream codec', () => {
  it('creates no key and stores nothing for a customer without consent', async () => {
    const world = await setUp();
    try {
      const error = await world.commands.run(recordPings, { type: 'RecordPings', account_id: ACCOUNT, customer_id: 'c-none', pings: pings(1) }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ConsentRequiredError);
      expect(readdirSync(path.join(world.dir, 'data-keys'))).toEqual([]);
      await expect(world.events.readStream(locationStream(ACCOUNT, 'c-none'))).rejects.toMatchObject({ code: 'STREAM_NOT_FOUND' });
    } finally {
      await world.close();
    }
  });

  it('stores events sealed, with the pseudonym in the clear, and keeps a sealed snapshot and the ping-id index by pseudonym only', async () => {
    const world = await setUp();
    try {
      await world.grant('c-1');
      const first = await world.record('c-1', pings(1, 2, 3));
      expect(first.outcomes.map((outcome) => outcome.status)).toEqual(['accepted', 'accepted', 'accepted']);
      const stored = await world.events.readStream(locationStream(ACCOUNT, 'c-1'));
      const pseudonym = world.pseudonyms.of(ACCOUNT, 'c-1');
      expect(stored[0].data).toEqual({
        account_id: ACCOUNT,
        customer_id: 'c-1',
        key_id: expect.any(String),
        pseudonym,
        ping_id: expect.any(String),
        recorded_at: at(1),
        sealed: expect.stringMatching(/^v1\./),
      });
      expect(JSON.stringify(stored.map((event) => event.data))).not.toContain('5.55');
      const snapshot = await world.caches.snapshot(pseudonym);
      expect(snapshot).toMatchObject({ id: pseudonym, pseudonym, revision: '2', key_id: stored[0].data.key_id });
      expect(JSON.stringify(snapshot)).not.toMatch(/c-1|acct_codec|5\.55|11:0/);

      // The snapshot covers every event, so a replay is recognised by the index alone.
      const replay = await world.record('c-1', pings(2, 3, 4));
      expect(replay.outcomes.map((outcome) => outcome.status)).toEqual(['duplicate', 'duplicate', 'accepted']);
      expect(replay.previous.seen_ping_ids).toEqual([]);
      expect((await world.events.readStream(locationStream(ACCOUNT, 'c-1'))).filter((event) => event.type === 'PingRecorded')).toHaveLength(4);
    } finally {
      await world.close();
    }
  });

  it('folds from the start when the snapshot was sealed under a destroyed key, leaving that key’s events out', async () => {
    const world = await setUp();
    try {
      await world.grant('c-2');
      await world.record('c-2', pings(1, 2));
      await world.sealing.shred(ACCOUNT, 'c-2');
      // As after an erasure stopped before deleting the stream: old events and snapshot unreadable.
      const after = await world.record('c-2', pings(1, 5));
      expect(after.previous.latest).toBeNull();
      expect(after.outcomes.map((outcome) => outcome.status)).toEqual(['accepted', 'accepted']);
    } finally {
      await world.close();
    }
  });

  it('opens stored events before upcasting them: an upcaster sees the location fields', async () => {
    const seen: unknown[] = [];
    // PingRecorded at version 2, whose upcaster needs a sealed field of version 1.
    const types = monitoringEventTypes.map((definition) =>
      definition.type === 'PingRecorded'
        ? {
            type: 'PingRecorded',
            version: 2,
            upcast: (data: Record<string, unknown>) => {
              seen.push(data.lat);
              if (typeof data.lat !== 'number') throw new Error('the upcaster was handed sealed data');
              return data;
            },
          }
        : definition,
    );
    const world = await setUp(types);
    try {
      await world.grant('c-3');
      const key = await world.sealing.keyFor(ACCOUNT, 'c-3');
      const stream = locationStream(ACCOUNT, 'c-3');
      const v1 = world.sealing.seal(
        key,
        stream,
        {
          type: 'PingRecorded',
          data: { account_id: ACCOUNT, customer_id: 'c-3', lat: 5.5, lng: -0.2, accuracy_m: null, device_id: null, recorded_at: at(1), ping_id: 'old-1', received_at: at(1) },
          metadata: { schema_version: 1 },
        },
        world.pseudonyms.of(ACCOUNT, 'c-3'),
      );
      await world.events.append(stream, [v1], 'no_stream');
      const { state } = await world.commands.read(recordPings, stream);
      expect(seen).toEqual([5.5]);
      expect(state.latest).toEqual({ lat: 5.5, lng: -0.2, recorded_at: at(1) });
    } finally {
      await world.close();
    }
  });
});
