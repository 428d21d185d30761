import { command, SecretBox } from '../../platform/src/index.js';
import { parseWebhookUrl, webhookDecider, webhookStream, type WebhookCommand, type WebhookEvent, type WebhookState } from './domain/webhook.js';
import { UrlGuard } from './outbound/url-guard.js';
import { webhookSecretCodec } from './sealing/webhook-secret-codec.js';

// The webhook stream's one declaration, shared by the slices that configure, read or retry (and by delivery).
export type ConfigureWebhook = Extract<WebhookCommand, { type: 'ConfigureWebhook' }>;

/**
 * POST /v2/webhooks/configure. The secret is sealed by the stream's codec;
 * a URL pointing at a private or loopback address (unless allowed) is refused
 * before anything is stored, and delivery checks it again on every attempt.
 * Also what reads the webhook stream (`pipeline.read`) for queries and delivery.
 */
export const configureWebhook = command<ConfigureWebhook, WebhookState, WebhookEvent, { box: SecretBox; guard: UrlGuard }>({
  name: 'webhooks.configure-webhook',
  stream: (input: ConfigureWebhook) => webhookStream(input.account_id),
  decider: webhookDecider,
  inject: { box: SecretBox, guard: UrlGuard },
  codec: ({ box }) => webhookSecretCodec(box),
  async prepare(input, _loaded, { guard }) {
    if (guard.checksAddresses) await guard.target(parseWebhookUrl(input.url));
    return input;
  },
  // Configuring replaces whatever is there, so deciding again on the newer
  // state gives the same event: ten clients configuring at once all succeed
  // (issue #10, item 10), each retry one more append behind the others.
  onConflict: { retry: 10 },
});
