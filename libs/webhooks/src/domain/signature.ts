import { createHmac } from 'node:crypto';

/**
 * The signature headers of one delivery attempt (interface.md, "Headers on
 * every delivery"): V1 is the hex HMAC-SHA256 of the raw body and never
 * expires; V2 covers `${timestamp}.${body}`, so together with the receiver's
 * 300 s timestamp check it defeats replays. Both are always sent.
 */
export interface DeliverySignature {
  'X-Webhook-Timestamp': string;
  'X-Webhook-Signature': string;
  'X-Webhook-Signature-V2': string;
}

export function signDelivery(secret: string, body: string, attemptedAt: Date): DeliverySignature {
  const timestamp = Math.floor(attemptedAt.getTime() / 1000).toString();
  return {
    'X-Webhook-Timestamp': timestamp,
    'X-Webhook-Signature': hmacHex(secret, body),
    'X-Webhook-Signature-V2': hmacHex(secret, `${timestamp}.${body}`),
  };
}

function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}
