import { appendDecided, loadStream, type Clock, type EventRegistry, type EventStore } from '../../platform/src/index.js';
import {
  consentStream,
  decideConsent,
  evolveConsent,
  initialConsentState,
  type ConsentCommand,
  type ConsentEvent,
  type ConsentState,
} from './domain/consent.js';

/** Runs consent commands: load the (account, customer) stream, decide, append with the expected revision. */
export class Consents {
  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly clock: Clock,
  ) {}

  /** Read straight from the stream: one short stream per customer; a projection comes with the list endpoints. */
  async state(accountId: string, customerId: string): Promise<ConsentState> {
    const { state } = await loadStream(this.events, this.registry, consentStream(accountId, customerId), evolveConsent, initialConsentState);
    return state;
  }

  async execute(accountId: string, customerId: string, command: (now: Date) => ConsentCommand): Promise<ConsentState> {
    return (await this.executeWithPosition(accountId, customerId, command)).state;
  }

  /** As `execute`, also answering the log position written, for callers that wait on read models. */
  async executeWithPosition(accountId: string, customerId: string, command: (now: Date) => ConsentCommand): Promise<{ state: ConsentState; position: bigint }> {
    const stream = consentStream(accountId, customerId);
    const { state, revision } = await loadStream(this.events, this.registry, stream, evolveConsent, initialConsentState);
    const decided: ConsentEvent[] = decideConsent(command(this.clock.now()), state);
    const { position } = await appendDecided(this.events, this.registry, stream, decided, revision);
    return { state: decided.reduce(evolveConsent, state), position };
  }
}
