import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { deliveryDecider, deliveryStream, type DeliveryConfirmed } from './delivery.js';

function confirmation(receipt: string): DeliveryConfirmed['data'] {
  return {
    account_id: 'acct_a',
    delivery_id: 'dlv-1',
    customer_id: null,
    receipt_id: `rcpt_${receipt}`,
    kid: 'k1',
    receipt,
    courier: { lat: 5.6, lng: -0.19, accuracy_m: 8, recorded_at: '2026-11-23T10:00:00.000Z', device_hash: null },
    location_code: '6Q3HQKQ4ZA',
    address: null,
    recipient_name: null,
    photo_sha256: null,
    provenance: { source: 'device_gps', provider: 'caller', accuracy_meters: 8, confidence: 0.68, verified_at: '2026-11-23T10:00:00.000Z' },
    confirmed_at: '2026-11-23T10:00:00.000Z',
  };
}
const command = (receipt?: string) => ({ type: 'ConfirmDelivery' as const, account_id: 'acct_a', delivery_id: 'dlv-1', confirmation: receipt === undefined ? undefined : confirmation(receipt) });
const spec = deciderSpec(deliveryDecider);

describe('delivery decider', () => {
  it('one stream per (account, delivery id)', () => {
    expect(deliveryStream('acct_a', 'dlv-1')).toBe('pod_delivery-acct_a:dlv-1');
  });

  it('the first confirmation records its signed receipt', () => {
    const { events, state } = spec.given([]).when(command('first.jws'));
    expect(events).toEqual([{ type: 'DeliveryConfirmed', data: confirmation('first.jws') }]);
    expect(state).toEqual({ status: 'confirmed', confirmation: confirmation('first.jws') });
  });

  it('confirming again records nothing and keeps the first receipt: never two', () => {
    const history = spec.history(command('first.jws'));
    const { events, state } = spec.given(history).when(command('second.jws'));
    expect(events).toEqual([]);
    expect(state).toEqual({ status: 'confirmed', confirmation: confirmation('first.jws') });
    // Nothing to prepare on a confirmed delivery: the repeat needs no receipt.
    expect(spec.given(history).when(command()).events).toEqual([]);
  });

  it('a stored second confirmation (none can be decided) does not replace the first receipt', () => {
    const given = spec.given([
      { type: 'DeliveryConfirmed', data: confirmation('first.jws') },
      { type: 'DeliveryConfirmed', data: confirmation('second.jws') },
    ]);
    expect(given.state).toEqual({ status: 'confirmed', confirmation: confirmation('first.jws') });
  });

  it('refuses an unprepared first confirmation, or one prepared for another delivery', () => {
    expect(spec.given([]).when(command()).error).toEqual(new Error('ConfirmDelivery was not prepared'));
    expect(spec.given([]).when({ ...command('x'), delivery_id: 'dlv-2' }).error).toEqual(new Error('ConfirmDelivery was prepared for another delivery'));
  });
});
