import { describe, expect, it } from '@jest/globals';
import { cellToLatLng, latLngToCell } from 'h3-js';
import type { EventRegistry, EventStore, ReadStore } from '../../platform/src/index.js';
import { MIN_REPORTERS, MIN_SAMPLES } from './domain/learned-traffic.js';
import { TRAFFIC_CELL_RES, TrafficView } from './public/traffic-view.js';

describe('traffic view: factors by point', () => {
  it('answers each point with its own cell, remembered points (same latitude, other longitudes) included', () => {
    const view = new TrafficView({} as EventStore, {} as ReadStore, { assertKnown: () => undefined } as unknown as EventRegistry);
    const at = new Date('2026-11-23T08:00:00Z');
    const [lat, lng] = cellToLatLng(latLngToCell(5.56, -0.2, TRAFFIC_CELL_RES));
    const learned = latLngToCell(lat, lng, TRAFFIC_CELL_RES);
    for (let i = 0; i < MIN_SAMPLES; i++) view.learned.add({ at: at.getTime(), bucket: 8, cells: [learned], observed_s: 300, static_s: 200, reporter: `r${i % MIN_REPORTERS}` });
    const expected = view.learned.estimate(learned, 8)!;
    expect(expected.source).toBe('learned');
    // Same latitude, a few kilometres east: another cell, nothing learned there.
    const east = lng + 0.05;
    expect(latLngToCell(lat, east, TRAFFIC_CELL_RES)).not.toBe(learned);
    for (let round = 0; round < 2; round++) {
      expect(view.trafficFactor(lat, lng, 'primary', at)).toBeCloseTo(expected.factor, 9);
      expect(view.trafficFactor(lat, east, 'primary', at)).toBeUndefined();
    }
    expect(view.trafficFactor(lat, lng, 'primary', new Date('2026-11-23T03:00:00Z'))).toBeUndefined();
  });
});
