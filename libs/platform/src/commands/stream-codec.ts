import type { AppendResult, NewEvent, RecordedEvent } from '../event-store/event-store.port.js';

/**
 * What lies between a stream's stored bytes and its decider (style.md:
 * "Encryption and snapshots are a codec under the stream"). The pipeline reads
 * decode → open → upcast → evolve and writes decide → seal → append; a codec
 * fills the open and seal steps, and may keep snapshots and indexes.
 *
 * A codec makes one session per command attempt, so a session may cache what
 * it looked up (a data key) for that attempt only.
 */
export interface StreamCodec<State = unknown> {
  session(stream: string): CodecSession<State>;
}

export interface Snapshot<State> {
  state: State;
  /** The stream revision the state includes; the fold continues after it. */
  revision: bigint;
}

export interface CodecSession<State = unknown> {
  /** A state to start the fold from, when the codec keeps snapshots. */
  snapshot?(): Promise<Snapshot<State> | undefined>;
  /** Unseals a stored event; undefined leaves it out of the fold (its key was destroyed). Runs before upcasting. */
  open(event: RecordedEvent): Promise<RecordedEvent | undefined> | RecordedEvent | undefined;
  /** Seals a decided event, already stamped with its schema version, for the append. */
  seal(event: NewEvent): Promise<NewEvent> | NewEvent;
  /** After a successful append: snapshots, de-duplication indexes. */
  appended?(outcome: { state: State; result: AppendResult; events: readonly NewEvent[] }): Promise<void>;
}

/** Events stored as they are decided. */
export const plainCodec: StreamCodec<never> = {
  session: () => ({ open: (event) => event, seal: (event) => event }),
};
