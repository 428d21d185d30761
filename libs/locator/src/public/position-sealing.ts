import {
  SealedFields,
  StreamNotFoundError,
  type CodecSession,
  type DataKey,
  type DataKeyVault,
  type EventRegistry,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  type StreamCodec,
} from '../../../platform/src/index.js';
import { evolvePosition, initialPositionState, type PositionEvent, type PositionState } from '../domain/position.js';

/** Stored form of a check-in: the account, the key id and the time in the clear, the rest sealed. */
export interface SealedCheckIn extends Record<string, unknown> {
  account_id: string;
  key_id: string;
  checked_in_at: string;
  sealed: string;
}

const CLEAR_FIELDS = new Set(['account_id', 'checked_in_at']);

/**
 * The codec under `locator_position-` streams (style.md: "Encryption and
 * snapshots are a codec under the stream"; docs/adr/0020, after ADR 12's
 * crypto-shredding of pings). Each check-in keeps only the account and its
 * time in the clear; latitude, longitude and accuracy are one `sealed` field,
 * AES-256-GCM under the owner's own data key from the DataKeyVault, bound to
 * the stream and event type (the platform's SealedFields codec, as monitoring's
 * location streams). Destroying that key
 * (DELETE /v2/locator/data) makes every copy unreadable: the log, pages the
 * store freed but did not wipe, EventStoreDB before a scavenge, Kafka.
 *
 * The fold starts from the stream's last event (`snapshot`): the state is the
 * latest position and depends on nothing older, so a check-in or a viewer's
 * read costs one backwards read however long the history is.
 */
export class PositionSealing {
  private readonly fields = new SealedFields();

  constructor(
    private readonly vault: DataKeyVault,
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
  ) {}

  /** The owner's data-key subject (monitoring's are `<account>:<customer>`; account ids never start with `locator`). */
  static subject(accountId: string): string {
    return `locator:${accountId}`;
  }

  codec(): StreamCodec<PositionState> {
    return { session: (stream) => this.session(stream) };
  }

  /** Destroys the owner's key: every position sealed under it becomes noise. */
  shred(accountId: string): Promise<void> {
    return this.vault.destroy(PositionSealing.subject(accountId));
  }

  /** The event in the clear, or undefined when its key was destroyed (or replaced after an erasure). */
  async open(event: RecordedEvent): Promise<RecordedEvent | undefined> {
    const stored = event.data as SealedCheckIn;
    if (typeof stored.sealed !== 'string' || typeof stored.key_id !== 'string') throw new Error(`${event.type} at ${event.streamName}@${event.revision} is not sealed`);
    const key = await this.vault.find(PositionSealing.subject(stored.account_id), stored.key_id);
    if (!key) return undefined;
    return { ...event, data: this.fields.open(key, SealedFields.context(event.streamName, event.type), stored, ['key_id']) };
  }

  private session(stream: string): CodecSession<PositionState> {
    let key: DataKey | undefined;
    return {
      snapshot: async () => {
        let last: RecordedEvent | undefined;
        try {
          [last] = await this.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
        } catch (error) {
          if (error instanceof StreamNotFoundError) return undefined;
          throw error;
        }
        if (!last) return undefined;
        const opened = await this.open(last);
        if (!opened) return { state: initialPositionState, revision: last.revision };
        const event = this.registry.upcast(opened);
        // The cast cannot go: a stored event's type and data are untyped JSON until the decider's evolve reads them;
        // the registry has upcast it to the current schema of its type, which is what PositionEvent describes.
        return { state: evolvePosition(initialPositionState, { type: event.type, data: event.data } as unknown as PositionEvent), revision: last.revision };
      },
      open: (event) => this.open(event),
      seal: async (event: NewEvent) => {
        const data = event.data as Record<string, unknown>;
        const accountId = String(data.account_id);
        key ??= await this.vault.obtain(PositionSealing.subject(accountId));
        return { ...event, data: this.fields.seal(key, SealedFields.context(stream, event.type), data, (field) => CLEAR_FIELDS.has(field), { key_id: key.id }) };
      },
    };
  }
}
