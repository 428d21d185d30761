import type { CapAlert } from '../cap/parse-cap.js';

export type LngLat = [number, number];
export type BBox = { minLng: number; minLat: number; maxLng: number; maxLat: number };

/** CAP events and categories that count as flood or heavy rain for safer routes (docs/adr/0026). */
const WET_EVENT = /rain|flood|storm|thunder|inondation|pluie|orage|wet|cyclone|deluge/i;

export const isWetAlert = (alert: CapAlert): boolean => WET_EVENT.test(alert.event) || (alert.headline !== null && WET_EVENT.test(alert.headline));

const keyOf = (sender: string, identifier: string) => `${sender}\u0000${identifier}`;

/** Ray casting: is the point inside the ring ([lng, lat] pairs)? */
export function inRing(point: LngLat, ring: LngLat[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > point[1] !== yj > point[1] && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function alertCovers(alert: CapAlert, point: LngLat): boolean {
  return alert.areas.some((area) => area.geometry?.coordinates.some(([ring]) => inRing(point, ring)) ?? false);
}

function alertTouchesBox(alert: CapAlert, box: BBox): boolean {
  return alert.areas.some((area) =>
    area.geometry?.coordinates.some(([ring]) => {
      let minLng = Infinity, minLat = Infinity, maxLng = -Infinity, maxLat = -Infinity;
      for (const [lng, lat] of ring) {
        minLng = Math.min(minLng, lng); maxLng = Math.max(maxLng, lng); minLat = Math.min(minLat, lat); maxLat = Math.max(maxLat, lat);
      }
      return minLng <= box.maxLng && maxLng >= box.minLng && minLat <= box.maxLat && maxLat >= box.minLat;
    }),
  );
}

/**
 * The alert state: every accepted CAP message keyed by sender and identifier.
 * An Update or Cancel removes the messages it references (a Cancel leaves
 * nothing behind); an alert past `expires` is not active. Pure and
 * deterministic: the same messages in the same order give the same book.
 */
export class AlertBook {
  private readonly alerts = new Map<string, CapAlert>();
  private readonly replaced = new Set<string>();

  constructor(messages: Iterable<CapAlert> = []) {
    for (const message of messages) this.add(message);
  }

  /** Adds one message; false when it was already there or already replaced. */
  add(message: CapAlert): boolean {
    const key = keyOf(message.sender, message.identifier);
    if (this.alerts.has(key) || this.replaced.has(key)) return false;
    for (const reference of message.references) {
      const referenced = keyOf(reference.sender, reference.identifier);
      this.alerts.delete(referenced);
      this.replaced.add(referenced);
    }
    if (message.msgType === 'Alert' || message.msgType === 'Update') this.alerts.set(key, message);
    return true;
  }

  get size(): number {
    return this.alerts.size;
  }

  /** Actual alerts in effect at `at`: not expired, not replaced, not cancelled. */
  active(at: Date): CapAlert[] {
    const now = at.getTime();
    return [...this.alerts.values()]
      .filter((alert) => alert.status === 'Actual')
      .filter((alert) => alert.expires === null || Date.parse(alert.expires) > now)
      .sort((a, b) => b.sent.localeCompare(a.sent) || a.identifier.localeCompare(b.identifier));
  }

  covering(point: LngLat, at: Date): CapAlert[] {
    return this.active(at).filter((alert) => alertCovers(alert, point));
  }

  inBox(box: BBox, at: Date): CapAlert[] {
    return this.active(at).filter((alert) => alertTouchesBox(alert, box));
  }
}

/** One alert as a GeoJSON Feature (interface.md, GET /v2/weather/alerts). */
export function alertFeature(alert: CapAlert) {
  const polygons = alert.areas.flatMap((area) => area.geometry?.coordinates ?? []);
  return {
    type: 'Feature' as const,
    id: alert.identifier,
    geometry: polygons.length ? { type: 'MultiPolygon' as const, coordinates: polygons } : null,
    properties: {
      identifier: alert.identifier,
      sender: alert.sender,
      sent: alert.sent,
      event: alert.event,
      severity: alert.severity,
      urgency: alert.urgency,
      certainty: alert.certainty,
      headline: alert.headline,
      instruction: alert.instruction,
      effective: alert.effective,
      expires: alert.expires,
      areas: alert.areas.map((area) => area.description),
      signature: alert.signature,
    },
  };
}
