import type { Provenance } from '../../../addressing/src/index.js';
import type { Decider } from '../../../platform/src/commands/decider.js';
import type { ProximityDecision } from './proximity.js';

/**
 * Proof of delivery (POST /v2/pod/confirm): one stream per (account,
 * delivery id). The first confirmation records the signed receipt; every
 * later one answers that same receipt and records nothing (idempotent by
 * delivery id, never two receipts). No image is stored: at most the SHA-256
 * of the photo the courier took, which the receipt signs.
 */
export function deliveryStream(accountId: string, deliveryId: string): string {
  return `pod_delivery-${accountId}:${deliveryId}`;
}

export interface DeliveryConfirmed {
  type: 'DeliveryConfirmed';
  data: {
    account_id: string;
    delivery_id: string;
    /** The caller's customer the parcel was for, when given (the webhook payload carries it). */
    customer_id: string | null;
    receipt_id: string;
    kid: string;
    /** The signed receipt (compact JWS) as issued: a repeated confirmation answers it again. */
    receipt: string;
    courier: { lat: number; lng: number; accuracy_m: number | null; recorded_at: string; device_hash: string | null };
    location_code: string;
    /** Against the expected address, when the caller named one. */
    address: { code: string; distance_m: number; radius_m: number; decision: ProximityDecision } | null;
    recipient_name: string | null;
    photo_sha256: string | null;
    provenance: Provenance;
    confirmed_at: string;
    /**
     * Set when the confirmation is read after its customer's data was erased
     * (ADR 0054): the courier's fix, `location_code`, `address`, `receipt` and
     * `recipient_name` were sealed under the destroyed key and are gone.
     */
    location_erased?: true;
  };
}
export type DeliveryEvent = DeliveryConfirmed;
export const DELIVERY_EVENT_TYPES = ['DeliveryConfirmed'] as const satisfies readonly DeliveryEvent['type'][];

export type DeliveryState = { status: 'pending' } | { status: 'confirmed'; confirmation: DeliveryConfirmed['data'] };
export const initialDeliveryState: DeliveryState = { status: 'pending' };

/** `confirmation` is prepared (receipt signed) only when the stream shows the delivery unconfirmed. */
export interface ConfirmDelivery {
  type: 'ConfirmDelivery';
  account_id: string;
  delivery_id: string;
  confirmation?: DeliveryConfirmed['data'];
}

export function evolveDelivery(state: DeliveryState, event: DeliveryEvent): DeliveryState {
  switch (event.type) {
    case 'DeliveryConfirmed':
      // A second DeliveryConfirmed cannot be decided; should one be stored anyway, the first receipt stays the answer.
      return state.status === 'confirmed' ? state : { status: 'confirmed', confirmation: event.data };
    default: {
      const _exhaustive: never = event.type;
      return _exhaustive;
    }
  }
}

export function decideDelivery(command: ConfirmDelivery, state: DeliveryState): DeliveryEvent[] {
  if (state.status === 'confirmed') return [];
  const confirmation = command.confirmation;
  if (!confirmation) throw new Error('ConfirmDelivery was not prepared');
  if (confirmation.delivery_id !== command.delivery_id || confirmation.account_id !== command.account_id) throw new Error('ConfirmDelivery was prepared for another delivery');
  return [{ type: 'DeliveryConfirmed', data: confirmation }];
}

export const deliveryDecider: Decider<ConfirmDelivery, DeliveryState, DeliveryEvent> = {
  initialState: initialDeliveryState,
  evolve: evolveDelivery,
  decide: (command, state) => decideDelivery(command, state),
};
