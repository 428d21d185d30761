import { SealedSecretError, type NewEvent, type RecordedEvent, type SecretBox, type StreamCodec } from '../../../platform/src/index.js';
import type { WebhookState } from '../domain/webhook.js';

/**
 * The codec under `webhook-<account>` streams (decisions.md, "Secrets at
 * rest"): the decided `WebhookConfigured` carries the secret, the stored one
 * only `secret_sealed` (SecretBox, bound to the stream name, so a sealed value
 * copied into another account's stream does not open). Reading opens it again;
 * a secret sealed under another DATA_ENCRYPTION_KEY reads as null.
 */
export function webhookSecretCodec(box: SecretBox): StreamCodec<WebhookState> {
  return {
    session: (stream) => ({
      open: (event: RecordedEvent) => {
        if (event.type !== 'WebhookConfigured' || !('secret_sealed' in event.data)) return event;
        const { secret_sealed, ...rest } = event.data;
        let secret: string | null;
        try {
          secret = box.open(String(secret_sealed), stream);
        } catch (error) {
          if (!(error instanceof SealedSecretError)) throw error;
          secret = null;
        }
        return { ...event, data: { ...rest, secret } };
      },
      seal: (event: NewEvent) => {
        if (event.type !== 'WebhookConfigured') return event;
        const { account_id, url, secret, secret_length, event_types, configured_at } = event.data;
        return { ...event, data: { account_id, url, secret_sealed: box.seal(String(secret), stream), secret_length, event_types, configured_at } };
      },
    }),
  };
}
