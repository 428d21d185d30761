import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { deliveryErasureDecider, deliveryErasureStream, type EraseDeliveries } from './delivery-erasure.js';

const erase = (erased_at: string, legacy: string[] = []): EraseDeliveries => ({
  type: 'EraseDeliveries',
  account_id: 'acct_1',
  customer_hash: 'c0ffee',
  event_types: ['drift', 'geofence_breach'],
  erased_at,
  legacy_delivery_ids: legacy,
});
const { given, history } = deciderSpec(deliveryErasureDecider);

describe('delivery erasure decider', () => {
  it('records an erasure under the customer hash, legacy deliveries by id', () => {
    expect(given([]).when(erase('2026-11-22T10:00:00.000Z', ['dlv_1'])).events).toEqual([
      {
        type: 'WebhookDeliveriesErased',
        data: { account_id: 'acct_1', customer_hash: 'c0ffee', event_types: ['drift', 'geofence_breach'], erased_at: '2026-11-22T10:00:00.000Z', legacy_delivery_ids: ['dlv_1'] },
      },
    ]);
    expect(deliveryErasureStream('acct_1', 'c0ffee')).toBe('webhook_erasure-acct_1:c0ffee');
  });

  it('records the same erasure (the fan-out sees it again) or an older one once, a later one again', () => {
    const recorded = given(history(erase('2026-11-22T10:00:00.000Z')));
    expect(recorded.when(erase('2026-11-22T10:00:00.000Z')).events).toEqual([]);
    expect(recorded.when(erase('2026-11-22T09:00:00.000Z')).events).toEqual([]);
    expect(recorded.when(erase('2026-11-23T10:00:00.000Z')).state).toEqual({ erased_at: '2026-11-23T10:00:00.000Z' });
  });
});
