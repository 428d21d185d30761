import type { Decider } from '../../../platform/src/commands/decider.js';
import { DomainError, InvalidParamError } from '../../../platform/src/errors.js';
import type { WebhookEventType } from './notification.js';

/**
 * An account's webhook endpoint, one stream per account (interface.md,
 * "Webhook configuration (input)"). Configuring again replaces url, secret and
 * event types; deliveries still pending go to the new endpoint, signed with
 * the new secret. The secret is stored only sealed (decisions.md, "Secrets at
 * rest"): the stream's codec seals it on the way to the store and opens it on
 * the way back (`webhookSecretCodec`), so the decider deals in the secret
 * itself and never in its ciphertext.
 */
export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_SECRET_MIN_LENGTH = 16;
export const WEBHOOK_SECRET_MAX_LENGTH = 256;
/** Printable ASCII: the secret is an HMAC key both sides must type and store the same way. */
export const WEBHOOK_SECRET = /^[\x21-\x7e]+$/;

export interface WebhookConfigured {
  type: 'WebhookConfigured';
  data: {
    account_id: string;
    url: string;
    /**
     * The signing secret. Stored as `secret_sealed` (SecretBox, bound to the
     * stream name); null when it cannot be opened any more (DATA_ENCRYPTION_KEY
     * changed): nothing can be signed until the webhook is configured again.
     */
    secret: string | null;
    secret_length: number;
    event_types: WebhookEventType[];
    configured_at: string;
  };
}
export interface WebhookRemoved {
  type: 'WebhookRemoved';
  data: { account_id: string; removed_at: string };
}
export type WebhookEvent = WebhookConfigured | WebhookRemoved;
export const WEBHOOK_EVENT_TYPE_NAMES = ['WebhookConfigured', 'WebhookRemoved'] as const satisfies readonly WebhookEvent['type'][];

export type ConfiguredWebhook = { status: 'configured'; url: string; secret: string | null; secret_length: number; event_types: WebhookEventType[]; configured_at: string };
export type WebhookState = { status: 'none' } | ConfiguredWebhook;
export const initialWebhookState: WebhookState = { status: 'none' };

export class WebhookNotConfiguredError extends DomainError {
  readonly code = 'WEBHOOK_NOT_CONFIGURED';
  readonly status = 404;
  constructor() {
    super('this account has no webhook; configure one with POST /v2/webhooks/configure');
  }
}

/** `webhook-<account>`: the category has no dash (style.md, stream names). */
export function webhookStream(accountId: string): string {
  return `webhook-${accountId}`;
}

/** Associated data of the sealed secret: a sealed value copied into another account's stream does not open. */
export function secretAssociatedData(accountId: string): string {
  return webhookStream(accountId);
}

/**
 * The syntactic rules of a webhook URL; where it points is checked by the
 * address policy once its host is resolved. Credentials in the URL are
 * refused (they would sit in the log unsealed and go out in every request);
 * a fragment is never sent, so it is refused rather than silently dropped.
 */
export function parseWebhookUrl(value: string): URL {
  if (value.length > WEBHOOK_URL_MAX_LENGTH) throw new InvalidParamError(`url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`, 'url');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidParamError('url must be an absolute http or https URL', 'url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidParamError('url must use http or https', 'url');
  if (url.username || url.password) throw new InvalidParamError('url must not carry credentials; the secret authenticates deliveries', 'url');
  if (url.hash) throw new InvalidParamError('url must not have a fragment', 'url');
  if (!url.hostname) throw new InvalidParamError('url must name a host', 'url');
  return url;
}

export function evolveWebhook(state: WebhookState, event: WebhookEvent): WebhookState {
  switch (event.type) {
    case 'WebhookConfigured': {
      const { url, secret, secret_length, event_types, configured_at } = event.data;
      return { status: 'configured', url, secret, secret_length, event_types: [...event_types], configured_at };
    }
    case 'WebhookRemoved':
      return initialWebhookState;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export type WebhookCommand =
  | { type: 'ConfigureWebhook'; account_id: string; url: string; secret: string; event_types: WebhookEventType[] }
  | { type: 'RemoveWebhook'; account_id: string };

/**
 * Configuring always succeeds (it replaces whatever was there, so deciding it
 * again on a newer state gives the same event); removing needs a webhook.
 * Event types are de-duplicated, first occurrence kept; the URL is stored as
 * the URL parser normalised it.
 */
export function decideWebhook(command: WebhookCommand, state: WebhookState, now: Date): WebhookEvent[] {
  switch (command.type) {
    case 'ConfigureWebhook': {
      const { account_id, secret } = command;
      const url = parseWebhookUrl(command.url).href;
      const event_types = [...new Set(command.event_types)];
      return [{ type: 'WebhookConfigured', data: { account_id, url, secret, secret_length: secret.length, event_types, configured_at: now.toISOString() } }];
    }
    case 'RemoveWebhook':
      if (state.status !== 'configured') throw new WebhookNotConfiguredError();
      return [{ type: 'WebhookRemoved', data: { account_id: command.account_id, removed_at: now.toISOString() } }];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const webhookDecider: Decider<WebhookCommand, WebhookState, WebhookEvent> = {
  initialState: initialWebhookState,
  evolve: evolveWebhook,
  decide: decideWebhook,
};

/** Whether a notification of this type goes to the account's endpoint. */
export function isSubscribed(state: WebhookState, eventType: WebhookEventType): state is ConfiguredWebhook {
  return state.status === 'configured' && state.event_types.includes(eventType);
}

/** GET /v2/webhooks and the configure answer: never the secret, only its length. */
export function webhookView(state: ConfiguredWebhook) {
  return { url: state.url, event_types: state.event_types, secret_length: state.secret_length, configured_at: state.configured_at };
}
