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

describe('traffic view: arrivals name their reporter (docs/adr/0056)', () => {
  const arrival = (n: number, reporter_ids: string[] | undefined, reporter_weight: number | undefined) =>
    ({
      type: 'ArrivalRecorded',
      data: {
        arrival_id: `a${n}`,
        destination: null,
        end: null,
        origin: null,
        elapsed_s: 1200,
        mode: 'driving',
        depart_at: '2026-11-23T08:00:00.000Z',
        recorded_at: '2026-11-23T08:20:00.000Z',
        arrival_error_m: null,
        destination_cell: null,
        sample: { observed_s: 1200, static_s: 600, static_distance_m: 9000, ratio: 2, cells: ['88754e6499fffff'], bucket: 8 },
        rejected: null,
        reporter: reporter_ids?.[1] ?? `r${n}`,
        ...(reporter_ids ? { reporter_ids } : {}),
        ...(reporter_weight !== undefined ? { reporter_weight } : {}),
      },
    }) as const;
  const view = () => new TrafficView({} as EventStore, {} as ReadStore, { assertKnown: () => undefined } as unknown as EventRegistry);

  it('folds the stored identities and weights: accounts behind one address are one reporter, half-weight reporters count half at the gate', () => {
    const shared = view();
    for (let n = 0; n < 6; n++) shared.apply(arrival(n, ['ip:1', `account:${n % 3}`], 1));
    expect(shared.learned.estimate('88754e6499fffff', 8)).toMatchObject({ source: 'prior', samples: 6, reporters: 1 });
    const distinctHalf = view();
    for (let n = 0; n < 6; n++) distinctHalf.apply(arrival(n, [`ip:${n % 3}`, `account:${n % 3}`], 0.5));
    expect(distinctHalf.learned.estimate('88754e6499fffff', 8)).toMatchObject({ source: 'prior', reporters: 3 });
    const distinctFull = view();
    for (let n = 0; n < 6; n++) distinctFull.apply(arrival(n, [`ip:${n % 3}`, `account:${n % 3}`], 1));
    expect(distinctFull.learned.estimate('88754e6499fffff', 8)).toMatchObject({ source: 'learned', reporters: 3 });
    // Stored before ADR 0056 (no identities, no weight): each `reporter` alone, at full weight.
    const old = view();
    for (let n = 0; n < 6; n++) old.apply(arrival(n % 3, undefined, undefined));
    expect(old.learned.estimate('88754e6499fffff', 8)).toMatchObject({ source: 'learned', reporters: 3 });
  });
});
