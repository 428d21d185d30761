import { decodeJobId, encodeJobId } from './bullmq-job-queue.js';

describe('BullMQ job id escaping', () => {
  const ids = ['42', '-7', '007', 'order:42', 'a:b:c', '%', '%3A', '%I1', '%25:1', 'plain', 'ünï', '1e3', ' 5'];

  it('round-trips every id', () => {
    for (const id of ids) expect(decodeJobId(encodeJobId(id))).toBe(id);
  });

  it('never hands BullMQ an id it rejects: integer-like or containing ":"', () => {
    for (const id of ids) {
      const encoded = encodeJobId(id);
      expect(encoded).not.toContain(':');
      expect(`${parseInt(encoded, 10)}`).not.toBe(encoded);
    }
  });

  it('keeps ordinary ids readable in Redis', () => {
    expect(encodeJobId('webhook-delivery_9f1c')).toBe('webhook-delivery_9f1c');
  });
});
