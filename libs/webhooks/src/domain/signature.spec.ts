import { createHmac } from 'node:crypto';
import { signDelivery } from './signature.js';

describe('delivery signatures', () => {
  const secret = 'whsec_0123456789abcdef';
  const body = '{"event":"drift","timestamp":"2026-11-22T10:00:00.000Z"}';
  const at = new Date('2026-11-22T10:00:07.900Z');

  it('signs the raw body (V1) and `timestamp.body` (V2) with the attempt time in whole seconds', () => {
    const signed = signDelivery(secret, body, at);
    expect(signed['X-Webhook-Timestamp']).toBe('1795341607');
    expect(signed['X-Webhook-Signature']).toBe(createHmac('sha256', secret).update(body).digest('hex'));
    expect(signed['X-Webhook-Signature-V2']).toBe(createHmac('sha256', secret).update(`1795341607.${body}`).digest('hex'));
    expect(signed['X-Webhook-Signature']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives a different V2 for another attempt time and the same V1', () => {
    const first = signDelivery(secret, body, at);
    const later = signDelivery(secret, body, new Date(at.getTime() + 60_000));
    expect(later['X-Webhook-Signature']).toBe(first['X-Webhook-Signature']);
    expect(later['X-Webhook-Signature-V2']).not.toBe(first['X-Webhook-Signature-V2']);
    expect(signDelivery('another-secret-value', body, at)['X-Webhook-Signature']).not.toBe(first['X-Webhook-Signature']);
  });
});
