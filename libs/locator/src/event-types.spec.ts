import { EventRegistry, type DataKeyVault, type EventStore, type RecordedEvent } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import { evolvePosition, initialPositionState, ERASURE_EVENT_TYPES, POSITION_EVENT_TYPES, erasureDecider, type LocatorPositionsErased, type PositionEvent } from './domain/position.js';
import { evolveShare, initialShareState, SHARE_EVENT_TYPES, type ShareEvent } from './domain/share.js';
import { locatorEventTypes } from './event-types.js';
import { evolveShareDoc, type LocatorShareDoc } from './public/shares.read-model.js';
import { PositionSealing } from './public/position-sealing.js';

/** Stored JSON from schema version 1 must still fold into today's state (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/locator-events.v1.json', import.meta.url));
const inStream = (prefix: string) => stored.filter((event) => event.stream?.startsWith(prefix));
/** The fixture's data key (see the fixture's comment), in a vault that holds nothing else. */
const FIXTURE_KEY = { id: 'dk_fixture', key: Buffer.from('6c6f6361746f722d666978747572652d6b65792d6e6f742d7365637265742121', 'hex') };
const fixtureVault = {
  find: async (subject: string, keyId: string) => (subject === 'locator:acct_fixtureowner' && keyId === FIXTURE_KEY.id ? FIXTURE_KEY : undefined),
} as unknown as DataKeyVault;

describe('locator event types', () => {
  const registry = new EventRegistry().register(...locatorEventTypes);

  it('registers every event type of the context, each with a version, and has a stored fixture of each', () => {
    const types = [...SHARE_EVENT_TYPES, ...POSITION_EVENT_TYPES, ...ERASURE_EVENT_TYPES];
    for (const type of types) expect(registry.version(type)).toBe(1);
    expect(locatorEventTypes.map((definition) => definition.type).sort()).toEqual([...types].sort());
    expect(new Set(stored.map((event) => event.type))).toEqual(new Set(types));
  });

  it('reads version-1 share events into a revoked pairing, and into its read-model document', () => {
    const streamEvents = inStream('locator_share-8b1d');
    const events = upcastStoredEvents<ShareEvent>(registry, streamEvents);
    expect(events.reduce(evolveShare, initialShareState)).toEqual({
      status: 'revoked',
      offer: {
        share_id: 'shr_0f5c2a9e4b7d4c1e8a3f6b2d9c0e1a7b',
        owner_account_id: 'acct_fixtureowner',
        issued_at: '2026-11-23T09:00:00.000Z',
        code_expires_at: '2026-11-23T09:10:00.000Z',
        share_for_s: 3600,
        label: 'Mum',
      },
      pairing: { viewer_account_id: 'acct_fixtureviewer', paired_at: '2026-11-23T09:02:00.000Z', expires_at: '2026-11-23T10:02:00.000Z' },
      revoked_by: 'owner',
      revoked_at: '2026-11-23T09:30:00.000Z',
    });
    const doc = events.reduce<LocatorShareDoc | undefined>((current, event) => evolveShareDoc(current, streamEvents[0].stream!, event), undefined);
    expect(doc).toMatchObject({ id: 'shr_0f5c2a9e4b7d4c1e8a3f6b2d9c0e1a7b', status: 'revoked', viewer_account_id: 'acct_fixtureviewer', ends_at: '2026-11-23T09:30:00.000Z', stream: streamEvents[0].stream });
  });

  it('reads a version-1 cancelled code', () => {
    const events = upcastStoredEvents<ShareEvent>(registry, inStream('locator_share-1f2e'));
    expect(events.reduce(evolveShare, initialShareState)).toMatchObject({ status: 'cancelled', cancelled_at: '2026-11-23T09:41:00.000Z', offer: { share_id: 'shr_7a1e0c9d2b3f4e5a6b7c8d9e0f1a2b3c', share_for_s: null } });
  });

  it('opens a version-1 sealed check-in with its key and folds it into the latest position', async () => {
    const sealing = new PositionSealing(fixtureVault, {} as EventStore, registry);
    const [storedCheckIn] = inStream('locator_position-');
    const recorded: RecordedEvent = { id: 'e', streamName: storedCheckIn.stream!, type: storedCheckIn.type, data: storedCheckIn.data, metadata: storedCheckIn.metadata, revision: 0n, position: 1n, createdAt: new Date(0) };
    const opened = await sealing.open(recorded);
    const [event] = upcastStoredEvents<PositionEvent>(registry, [{ ...storedCheckIn, data: opened!.data }]);
    expect(evolvePosition(initialPositionState, event)).toEqual({ last: { lat: 5.6037, lng: -0.187, accuracy_m: 12, checked_in_at: '2026-11-23T09:05:00.000Z' } });
    // Under another stream name the associated data differs: the seal does not open (a sealed field cannot be moved between streams).
    await expect(sealing.open({ ...recorded, streamName: 'locator_position-acct_other' })).rejects.toThrow();
  });

  it('reads a version-1 erasure record', () => {
    const events = upcastStoredEvents<LocatorPositionsErased>(registry, inStream('locator_erasure-'));
    expect(events.reduce(erasureDecider.evolve, erasureDecider.initialState)).toEqual({ erasures: 1, last_erased_at: '2026-11-23T11:00:00.000Z' });
  });
});
