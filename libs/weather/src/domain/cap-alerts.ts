import type { Decider } from '../../../platform/src/commands/decider.js';
import type { CapAlert } from './cap-alert.js';

/**
 * CAP alerts as events (docs/adr/0026, "Storage"): one stream holds every
 * accepted CAP message in arrival order, so the alert book is its fold and an
 * "as of" replay sees exactly what the service knew.
 */
export const CAP_ALERTS_STREAM = 'weather_alerts-cap';

/** An Alert or Update (or Ack/Error) message, as read and checked (signature included). */
export interface WeatherAlertImported {
  type: 'WeatherAlertImported';
  data: { message: CapAlert; recorded_at: string };
}

/** A Cancel message: the alerts it references leave the book. */
export interface WeatherAlertCancelled {
  type: 'WeatherAlertCancelled';
  data: { message: CapAlert; recorded_at: string };
}

/**
 * An alert found past its `expires` when alerts were next recorded. The book
 * keeps expired alerts (GET /v2/weather/alerts answers `at` a past moment);
 * the event records when the service saw the alert lapse.
 */
export interface WeatherAlertExpired {
  type: 'WeatherAlertExpired';
  data: { sender: string; identifier: string; expires: string; noticed_at: string };
}

export type CapAlertEvent = WeatherAlertImported | WeatherAlertCancelled | WeatherAlertExpired;

export const CAP_ALERT_EVENT_TYPES = ['WeatherAlertImported', 'WeatherAlertCancelled', 'WeatherAlertExpired'] as const;

/** The accepted messages of one import or poll, in arrival order. */
export interface RecordAlerts {
  type: 'RecordAlerts';
  messages: readonly CapAlert[];
}

export interface CapAlertsState {
  /** Every message recorded or referenced (replaced, cancelled), by sender and identifier: none is recorded twice, a late copy of a replaced one never comes back. */
  seen: ReadonlySet<string>;
  /** Alerts in the book with an expiry not yet recorded as passed: key → expires (ms). */
  live: ReadonlyMap<string, { sender: string; identifier: string; expires: string; at: number }>;
}

export const alertKey = (sender: string, identifier: string): string => `${sender}\u0000${identifier}`;

const initialState: CapAlertsState = { seen: new Set(), live: new Map() };

function evolve(state: CapAlertsState, event: CapAlertEvent): CapAlertsState {
  switch (event.type) {
    case 'WeatherAlertImported':
    case 'WeatherAlertCancelled': {
      const message = event.data.message;
      const seen = new Set(state.seen);
      const live = new Map(state.live);
      for (const reference of message.references) {
        const key = alertKey(reference.sender, reference.identifier);
        seen.add(key);
        live.delete(key);
      }
      const key = alertKey(message.sender, message.identifier);
      seen.add(key);
      if ((message.msgType === 'Alert' || message.msgType === 'Update') && message.expires !== null) {
        live.set(key, { sender: message.sender, identifier: message.identifier, expires: message.expires, at: Date.parse(message.expires) });
      }
      return { seen, live };
    }
    case 'WeatherAlertExpired': {
      const live = new Map(state.live);
      live.delete(alertKey(event.data.sender, event.data.identifier));
      return { seen: state.seen, live };
    }
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/**
 * Records the messages not seen before (a duplicate, or a late copy of a
 * replaced alert, is left out), then the expiry of every alert in the book
 * whose `expires` has passed at `now`. Nothing new: no event.
 */
function decide(command: RecordAlerts, state: CapAlertsState, now: Date): CapAlertEvent[] {
  const events: CapAlertEvent[] = [];
  let working = state;
  const recordedAt = now.toISOString();
  for (const message of command.messages) {
    if (working.seen.has(alertKey(message.sender, message.identifier))) continue;
    const event: CapAlertEvent =
      message.msgType === 'Cancel' ? { type: 'WeatherAlertCancelled', data: { message, recorded_at: recordedAt } } : { type: 'WeatherAlertImported', data: { message, recorded_at: recordedAt } };
    events.push(event);
    working = evolve(working, event);
  }
  for (const alert of working.live.values()) {
    if (alert.at <= now.getTime()) events.push({ type: 'WeatherAlertExpired', data: { sender: alert.sender, identifier: alert.identifier, expires: alert.expires, noticed_at: recordedAt } });
  }
  return events;
}

export const capAlertsDecider: Decider<RecordAlerts, CapAlertsState, CapAlertEvent> = { initialState, evolve, decide };

/** How many of the recorded events are messages (not expiries): what an import reports as added. */
export const recordedMessages = (events: readonly CapAlertEvent[]): number => events.filter((event) => event.type !== 'WeatherAlertExpired').length;
