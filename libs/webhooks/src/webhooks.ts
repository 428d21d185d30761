import { appendDecided, loadStream, type Clock, type EventRegistry, type EventStore, type SecretBox } from '../../platform/src/index.js';
import type { WebhookEventType } from '../../monitoring/src/index.js';
import {
  decideWebhook,
  evolveWebhook,
  initialWebhookState,
  parseWebhookUrl,
  secretAssociatedData,
  webhookStream,
  type WebhookCommand,
  type WebhookEvent,
  type WebhookState,
} from './domain/webhook.js';
import type { UrlGuard } from './outbound/url-guard.js';

export interface WebhookInput {
  url: string;
  secret: string;
  event_types: WebhookEventType[];
}

/** Runs the webhook configuration commands: validate, seal the secret, load, decide, append with the expected revision. */
export class Webhooks {
  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly clock: Clock,
    private readonly secretBox: SecretBox,
    private readonly guard: UrlGuard,
  ) {}

  async state(accountId: string): Promise<WebhookState> {
    const { state } = await loadStream(this.events, this.registry, webhookStream(accountId), evolveWebhook, initialWebhookState);
    return state;
  }

  /** The plain secret of a configured webhook, for signing; throws SealedSecretError if the key changed. */
  secretOf(accountId: string, state: Extract<WebhookState, { status: 'configured' }>): string {
    return this.secretBox.open(state.secret_sealed, secretAssociatedData(accountId));
  }

  /**
   * Refuses a URL that points at a private or loopback address (unless
   * allowed) before anything is stored; delivery checks again on every attempt.
   */
  async configure(accountId: string, input: WebhookInput): Promise<WebhookState> {
    const url = parseWebhookUrl(input.url);
    if (this.guard.checksAddresses) await this.guard.target(url);
    const secret_sealed = this.secretBox.seal(input.secret, secretAssociatedData(accountId));
    return this.execute(accountId, (now) => ({
      type: 'ConfigureWebhook',
      account_id: accountId,
      url: url.href,
      secret_sealed,
      secret_length: input.secret.length,
      event_types: input.event_types,
      now,
    }));
  }

  remove(accountId: string): Promise<WebhookState> {
    return this.execute(accountId, (now) => ({ type: 'RemoveWebhook', account_id: accountId, now }));
  }

  private async execute(accountId: string, command: (now: Date) => WebhookCommand): Promise<WebhookState> {
    const stream = webhookStream(accountId);
    const { state, revision } = await loadStream(this.events, this.registry, stream, evolveWebhook, initialWebhookState);
    const decided: WebhookEvent[] = decideWebhook(command(this.clock.now()), state);
    await appendDecided(this.events, this.registry, stream, decided, revision);
    return decided.reduce(evolveWebhook, state);
  }
}

/** GET /v2/webhooks and the configure answer: never the secret, only its length. */
export function webhookView(state: Extract<WebhookState, { status: 'configured' }>) {
  return { url: state.url, event_types: state.event_types, secret_length: state.secret_length, configured_at: state.configured_at };
}
