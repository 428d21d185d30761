import { hash } from 'node:crypto';
import type { RecordedEvent } from '../event-store/event-store.port.js';

/** The part of a decider a replay needs: the same initial state and evolve the command pipeline folds with. */
export interface Fold<State, Event> {
  initialState: State;
  evolve(state: State, event: Event): State;
}

/**
 * What one bounded context offers to the as-of replay (docs/adr/0023): which
 * streams belong to an account, when each event happened, the decider that
 * folds a stream, and how the folded streams are shown. The compliance
 * context folds every stream's events up to the instant asked for and hands
 * the states to `view`; a context joins by declaring its contributions
 * (built with `streamContributor`) in its manifest's `asOf`, and compliance
 * iterates the manifests of the process.
 */
export interface AsOfContributor {
  /** The key of this context's part in the answer (`account`, `keys`, `loans`, …). */
  readonly name: string;
  /** Stream-name prefixes that may hold this account's streams (one log scan serves every contributor). */
  prefixes(accountId: string): string[];
  /** Whether a stream (known by its name and first event) belongs to the account. */
  owns(stream: string, first: RecordedEvent, accountId: string): boolean;
  /** Folds the account's streams, each with its events up to `at` (oldest first). */
  fold(streams: ReadonlyMap<string, RecordedEvent[]>): { state: unknown; changes: Change[] };
  /** When an event happened (the decider's own time field; the store's time when it has none). */
  timeOf(event: RecordedEvent): string;
  /**
   * Completes this part once every part is folded, for a value that depends on
   * another part (a key's tier is its account's tier: what GET /v2/me said then).
   */
  resolve?(own: unknown, state: Readonly<Record<string, unknown>>): unknown;
}

/** One event that changed the account's state, as the replay lists it. */
export interface Change {
  at: string;
  context: string;
  stream: string;
  type: string;
  /** Fields safe to show (no secrets, no password or token hashes). */
  summary: Record<string, unknown>;
}

export interface StreamContributorOptions<State, Event> {
  name: string;
  prefixes: (accountId: string) => string[];
  /** Default: the stream starts with a prefix and, when its first event names an account, it is this one. */
  owns?: (stream: string, first: RecordedEvent, accountId: string) => boolean;
  decider: Fold<State, Event>;
  /** The ISO time field of each event type (e.g. `changed_at`); the store's time when absent. */
  timeField?: (event: RecordedEvent) => string | undefined;
  /** The context's part of the answer from its folded streams (stream → state). */
  view: (states: ReadonlyMap<string, State>) => unknown;
  /** What a change shows; default: the event's data without fields named like secrets. */
  summary?: (event: RecordedEvent) => Record<string, unknown>;
  /** See AsOfContributor.resolve. */
  resolve?: (own: unknown, state: Readonly<Record<string, unknown>>) => unknown;
}

const SECRET_FIELD = /secret|password|hash|token|key_material|sealed/i;

export function safeSummary(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => !SECRET_FIELD.test(key) || key === 'key_prefix'));
}

/** A contributor whose state is one decider's fold per stream (most contexts). */
export function streamContributor<State, Event>(options: StreamContributorOptions<State, Event>): AsOfContributor {
  const timeOf = (event: RecordedEvent): string => {
    const field = options.timeField?.(event);
    return typeof field === 'string' ? field : event.createdAt.toISOString();
  };
  return {
    name: options.name,
    prefixes: options.prefixes,
    owns:
      options.owns ??
      ((stream, first, accountId) => {
        const owner = (first.data as { account_id?: unknown }).account_id;
        return options.prefixes(accountId).some((prefix) => stream.startsWith(prefix)) && (owner === undefined || owner === accountId);
      }),
    timeOf,
    resolve: options.resolve,
    fold(streams) {
      const states = new Map<string, State>();
      const changes: Change[] = [];
      for (const [stream, events] of streams) {
        let state = options.decider.initialState;
        for (const event of events) {
          state = options.decider.evolve(state, { type: event.type, data: event.data } as Event);
          changes.push({ at: timeOf(event), context: options.name, stream, type: event.type, summary: (options.summary ?? ((e) => safeSummary(e.data)))(event) });
        }
        states.set(stream, state);
      }
      return { state: options.view(states), changes };
    },
  };
}

/** The first ISO string among an event's `*_at` fields, in the order given. */
export function firstTime(event: RecordedEvent, fields: readonly string[]): string | undefined {
  const data = event.data as Record<string, unknown>;
  for (const field of fields) if (typeof data[field] === 'string') return data[field];
  return undefined;
}

/** E-mail addresses appear as SHA-256 of the trimmed, lower-cased address: the auditor can match a known address, the replay discloses none. */
export function hashEmail(email: string): string {
  return hash('sha256', email.trim().toLowerCase(), 'hex');
}
