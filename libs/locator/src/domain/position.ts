import type { Decider } from '../../../platform/src/commands/decider.js';
import { InvalidParamError } from '../../../platform/src/errors.js';
import { isLatitude, isLongitude } from '../../../platform/src/geo/geodesy.js';

/**
 * A person's own position, as they check in (POST /v2/locator/checkin): one
 * stream per account, `locator_position-<account>`, whatever device sends it
 * (identity is the account, not the device). Viewers get the latest check-in
 * only. Stored sealed under the owner's data key (position-sealing.ts), so
 * erasure is destroying that key (docs/adr/0020).
 */
export const POSITION_EVENT_TYPES = ['LocatorCheckedIn'] as const;
export const ERASURE_EVENT_TYPES = ['LocatorPositionsErased'] as const;

/** Largest accepted `accuracy_m`: beyond this a fix says nothing useful about where someone is. */
export const MAX_ACCURACY_M = 100_000;

export interface Position {
  lat: number;
  lng: number;
  accuracy_m: number | null;
  checked_in_at: string;
}

/** As the decider sees it: opened. Stored, everything but the account and the time is sealed. */
export interface LocatorCheckedIn {
  type: 'LocatorCheckedIn';
  data: { account_id: string } & Position;
}
export type PositionEvent = LocatorCheckedIn;

export interface PositionState {
  /** The latest check-in; null before the first one (or after an erasure). */
  last: Position | null;
}
export const initialPositionState: PositionState = { last: null };

export interface CheckIn {
  type: 'CheckIn';
  account_id: string;
  lat: number;
  lng: number;
  accuracy_m: number | null;
}

export function positionStream(accountId: string): string {
  return `locator_position-${accountId}`;
}

/**
 * The state after an event. It depends on the last event only, which is what
 * lets the codec start the fold from the stream's last event (a snapshot that
 * costs one read) instead of the whole history.
 */
export function evolvePosition(_state: PositionState, event: PositionEvent): PositionState {
  switch (event.type) {
    case 'LocatorCheckedIn': {
      const { lat, lng, accuracy_m, checked_in_at } = event.data;
      return { last: { lat, lng, accuracy_m, checked_in_at } };
    }
    default: {
      const _exhaustive: never = event.type;
      return _exhaustive;
    }
  }
}

function decidePosition(command: CheckIn, _state: PositionState, now: Date): PositionEvent[] {
  if (!isLatitude(command.lat)) throw new InvalidParamError('lat must be a number from -90 to 90', 'lat');
  if (!isLongitude(command.lng)) throw new InvalidParamError('lng must be a number from -180 to 180', 'lng');
  if (command.accuracy_m !== null && (!Number.isFinite(command.accuracy_m) || command.accuracy_m < 0 || command.accuracy_m > MAX_ACCURACY_M)) {
    throw new InvalidParamError(`accuracy_m must be a number from 0 to ${MAX_ACCURACY_M}`, 'accuracy_m');
  }
  const { account_id, lat, lng, accuracy_m } = command;
  return [{ type: 'LocatorCheckedIn', data: { account_id, lat, lng, accuracy_m, checked_in_at: now.toISOString() } }];
}

export const positionDecider: Decider<CheckIn, PositionState, PositionEvent> = {
  initialState: initialPositionState,
  evolve: evolvePosition,
  decide: decidePosition,
};

/** Age of a position at `now`, in whole seconds (never negative: clocks of several instances may disagree by a little). */
export function ageSeconds(position: Position, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - Date.parse(position.checked_in_at)) / 1000));
}

/**
 * The record of an erasure (DELETE /v2/locator/data), appended to
 * `locator_erasure-<account>` once the key is destroyed and the positions are
 * gone: who and when, without any location.
 */
export interface LocatorPositionsErased {
  type: 'LocatorPositionsErased';
  data: { account_id: string; erased_at: string; events_erased: number; erased_by: string };
}
export interface RecordErasure {
  type: 'RecordErasure';
  account_id: string;
  events_erased: number;
  /** Key prefix of the personal token that asked. */
  erased_by: string;
}
export interface ErasureState {
  erasures: number;
  last_erased_at: string | null;
}

export function erasureStream(accountId: string): string {
  return `locator_erasure-${accountId}`;
}

export const erasureDecider: Decider<RecordErasure, ErasureState, LocatorPositionsErased> = {
  initialState: { erasures: 0, last_erased_at: null },
  evolve: (state, event) => ({ erasures: state.erasures + 1, last_erased_at: event.data.erased_at }),
  decide: (command, _state, now) => [
    { type: 'LocatorPositionsErased', data: { account_id: command.account_id, erased_at: now.toISOString(), events_erased: command.events_erased, erased_by: command.erased_by } },
  ],
};
