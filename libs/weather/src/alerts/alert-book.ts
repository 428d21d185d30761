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
  /** Per kept alert, read once: its expiry instant (ms; Infinity without one) and the box around its areas (null without geometry). */
  private readonly index = new Map<CapAlert, { expiresAt: number; box: BBox | null }>();

  constructor(messages: Iterable<CapAlert> = []) {
    for (const message of messages) this.add(message);
  }

  /** Adds one message; false when it was already there or already replaced. */
  add(message: CapAlert): boolean {
    const key = keyOf(message.sender, message.identifier);
    if (this.alerts.has(key) || this.replaced.has(key)) return false;
    for (const reference of message.references) {
      const referenced = keyOf(reference.sender, reference.identifier);
      const gone = this.alerts.get(referenced);
      if (gone) this.index.delete(gone);
      this.alerts.delete(referenced);
      this.replaced.add(referenced);
    }
    if (message.msgType === 'Alert' || message.msgType === 'Update') {
      this.alerts.set(key, message);
      this.index.set(message, { expiresAt: message.expires === null ? Infinity : Date.parse(message.expires), box: boxOf(message) });
    }
    return true;
  }

  get size(): number {
    return this.alerts.size;
  }

  /** Actual alerts in effect at `at`: not expired, not replaced, not cancelled; newest first. */
  active(at: Date): CapAlert[] {
    return this.select(at, () => true);
  }

  covering(point: LngLat, at: Date): CapAlert[] {
    const [lng, lat] = point;
    return this.select(at, (alert, box) => box !== null && lng >= box.minLng && lng <= box.maxLng && lat >= box.minLat && lat <= box.maxLat && alertCovers(alert, point));
  }

  inBox(box: BBox, at: Date): CapAlert[] {
    return this.select(at, (alert, around) => around !== null && around.minLng <= box.maxLng && around.maxLng >= box.minLng && around.minLat <= box.maxLat && around.maxLat >= box.minLat && alertTouchesBox(alert, box));
  }

  /** Filters first and sorts only what is kept (newest `sent`, then identifier), with plain string order: ISO instants sort as text. */
  private select(at: Date, keep: (alert: CapAlert, box: BBox | null) => boolean): CapAlert[] {
    const now = at.getTime();
    const kept: CapAlert[] = [];
    for (const [alert, { expiresAt, box }] of this.index) {
      if (alert.status !== 'Actual' || expiresAt <= now) continue;
      if (keep(alert, box)) kept.push(alert);
    }
    return kept.sort((a, b) => (a.sent === b.sent ? compare(a.identifier, b.identifier) : compare(b.sent, a.sent)));
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The box around every ring of an alert's areas, or null when it has no geometry. */
function boxOf(alert: CapAlert): BBox | null {
  let minLng = Infinity, minLat = Infinity, maxLng = -Infinity, maxLat = -Infinity;
  for (const area of alert.areas) {
    for (const [ring] of area.geometry?.coordinates ?? []) {
      for (const [lng, lat] of ring) {
        minLng = Math.min(minLng, lng); maxLng = Math.max(maxLng, lng); minLat = Math.min(minLat, lat); maxLat = Math.max(maxLat, lat);
      }
    }
  }
  return minLng === Infinity ? null : { minLng, minLat, maxLng, maxLat };
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
