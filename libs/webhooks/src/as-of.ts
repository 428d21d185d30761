import { firstTime, streamContributor, type AsOfContributor } from '../../platform/src/index.js';
import { webhookDecider, type WebhookEvent, type WebhookState } from './domain/webhook.js';

/** The webhooks context's part of an account as of an instant (docs/adr/0023): its webhook, never the secret. */
export const webhooksAsOf: readonly AsOfContributor[] = [
  streamContributor<WebhookState, WebhookEvent>({
    name: 'webhook',
    prefixes: (accountId) => [`webhook-${accountId}`],
    decider: webhookDecider,
    timeField: (event) => firstTime(event, ['configured_at', 'removed_at']),
    view: (states) => {
      const state = states.values().next().value;
      // Never the secret, only its length.
      return state?.status === 'configured' ? { url: state.url, event_types: [...state.event_types], secret_length: state.secret_length, configured_at: state.configured_at } : null;
    },
  }),
];
