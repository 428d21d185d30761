import type { Decider } from '../../../platform/src/commands/decider.js';
import type { WebhookEventType } from './notification.js';

/**
 * A customer's data was erased at its source (POST /v2/consent/delete-data,
 * ADR 12), and with it what their deliveries of `event_types` were built
 * from: the delivery history forgets them (projections/webhook-deliveries
 * deletes those documents, and ignores attempts recorded later for them).
 * Stream `webhook_erasure-<account>:<customer hash>`: the customer is named
 * by the keyed hash the deliveries carry, never by their id.
 */
export interface WebhookDeliveriesErased {
  type: 'WebhookDeliveriesErased';
  data: {
    account_id: string;
    customer_hash: string;
    event_types: WebhookEventType[];
    /** When the source erased the data; deliveries of events up to then are erased. */
    erased_at: string;
    /**
     * Deliveries stored before delivery schema version 2, which name the
     * customer in the clear rather than by hash: erased by id.
     */
    legacy_delivery_ids: string[];
  };
}
export type DeliveryErasureEvent = WebhookDeliveriesErased;
export const DELIVERY_ERASURE_EVENT_TYPES = ['WebhookDeliveriesErased'] as const satisfies readonly DeliveryErasureEvent['type'][];

export interface DeliveryErasureState {
  /** The latest erasure recorded; null before any. */
  erased_at: string | null;
}
export const initialDeliveryErasureState: DeliveryErasureState = { erased_at: null };

export type EraseDeliveries = WebhookDeliveriesErased['data'] & { type: 'EraseDeliveries' };

export function deliveryErasureStream(accountId: string, customerHash: string): string {
  return `webhook_erasure-${accountId}:${customerHash}`;
}

/** The fan-out sees each source erasure at least once: one already recorded (or an older one) records nothing. */
export const deliveryErasureDecider: Decider<EraseDeliveries, DeliveryErasureState, DeliveryErasureEvent> = {
  initialState: initialDeliveryErasureState,
  evolve: (state, event) => (state.erased_at !== null && state.erased_at >= event.data.erased_at ? state : { erased_at: event.data.erased_at }),
  decide: (command, state) => {
    if (state.erased_at !== null && state.erased_at >= command.erased_at) return [];
    const { type: _type, ...data } = command;
    return [{ type: 'WebhookDeliveriesErased', data: { ...data, event_types: [...data.event_types], legacy_delivery_ids: [...data.legacy_delivery_ids] } }];
  },
};
