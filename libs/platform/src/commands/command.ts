import type { DomainEvent } from '../events/event-stream.js';
import type { Decider } from './decider.js';
import type { StreamCodec } from './stream-codec.js';

/**
 * What a command does when its append finds the stream moved on (another
 * request wrote to it between load and append). `retry: n` loads the new state
 * and decides again, up to n more times: right when every rule of the command
 * is in its decider, so a decision on fresh state is as good as the first.
 * `retry: 0` answers 409 CONCURRENCY_CONFLICT at once; say why in a comment
 * (a verdict checked outside the decider, such as a password, must not be
 * reused on a state it was not checked against). Exhausted retries answer the
 * same 409: one code for "changed concurrently" across the API.
 */
export interface ConflictPolicy {
  retry: number;
}

/**
 * A read model the command waits for before it answers (read your own write),
 * for at most PROJECTION_WAIT_MS, then 504 TIMEOUT. `soft` waits as long but
 * answers anyway when the read model is late: declare it only where the answer
 * does not depend on the read model, and say why in a comment.
 */
export type ReadModelAwait = string | { readModel: string; soft: true };

/** The stream as the decider saw it. */
export interface LoadedState<State> {
  state: State;
  /** Last revision of the stream; undefined when it does not exist. */
  revision?: bigint;
}

/**
 * One use case, declared (style.md, "One command pipeline runs every
 * command"): its stream, its decider, an optional codec under the stream, its
 * conflict policy and the read models it waits for. The pipeline does the
 * load → (prepare) → decide → seal → append → await; a slice's handler file
 * holds nothing but this declaration.
 *
 * `inject` names what `prepare` and `codec` need from the container (Nest
 * tokens), resolved once, like a factory provider's `inject`.
 */
export interface CommandDefinition<Input, State, Event extends DomainEvent, Deps = Record<string, never>> {
  /** For logs and start-up checks: `<context>.<verb-noun>`. */
  readonly name: string;
  stream(input: Input): string;
  readonly decider: Decider<Input, State, Event>;
  readonly inject?: { readonly [K in keyof Deps]: unknown };
  readonly codec?: (deps: Deps) => StreamCodec<State>;
  /**
   * I/O the decision needs, done after the stream is read and before deciding
   * (so what it reads is at least as new as the stream): a consent, an index
   * lookup. Answers the command the decider gets.
   */
  prepare?(input: Input, loaded: LoadedState<State>, deps: Deps): Promise<Input>;
  readonly onConflict: ConflictPolicy;
  readonly awaits?: readonly ReadModelAwait[];
}

/** Declares a command handler; the identity function that lets TypeScript infer its types. */
export function command<Input, State, Event extends DomainEvent, Deps = Record<string, never>>(
  definition: CommandDefinition<Input, State, Event, Deps>,
): CommandDefinition<Input, State, Event, Deps> {
  return definition;
}

/** What running a command answers. */
export interface CommandResult<State, Event, Input = unknown> {
  /** State before the decision. */
  previous: State;
  /** State after the decided events. */
  state: State;
  events: Event[];
  /** The command as decided: after `prepare`, on the attempt that was appended (what a caller reports from). */
  command: Input;
  /** Global position of the last appended event; undefined when nothing was decided. */
  position?: bigint;
  /** Stream revision after the append (or as loaded, when nothing was decided). */
  revision?: bigint;
}

/** Any command definition, as manifests list them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommandDefinition = CommandDefinition<any, any, any, any>;

export function awaitedReadModel(entry: ReadModelAwait): string {
  return typeof entry === 'string' ? entry : entry.readModel;
}
