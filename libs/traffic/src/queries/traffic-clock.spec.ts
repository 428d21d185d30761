import { describe, expect, it } from '@jest/globals';
import type { Clock, EventRegistry, EventStore, ReadStore } from '../../../platform/src/index.js';
import { ACCURACY_WINDOW_DAYS } from '../domain/learned-traffic.js';
import { TrafficView } from '../public/traffic-view.js';
import { ListIncidentsHandler, ListIncidentsQuery } from './list-incidents/list-incidents.handler.js';
import { RoadTrafficHandler, RoadTrafficQuery } from './road-traffic/road-traffic.handler.js';
import { TrafficAccuracyHandler } from './traffic-accuracy/traffic-accuracy.handler.js';

/** The traffic queries read time from the injected clock (CLOCK), never the wall clock: tests and replays control "now". */
describe('traffic queries on the injected clock', () => {
  const view = () => new TrafficView({} as EventStore, {} as ReadStore, { assertKnown: () => undefined } as unknown as EventRegistry);
  const at = (iso: string): Clock => ({ now: () => new Date(iso) });

  it('lists an incident while it lives on the clock, not after (flooding lives 12 h)', async () => {
    const traffic = view();
    traffic.board.apply({ report_id: 'r1', kind: 'flooding', lat: 5.56, lng: -0.2, note: null, reporter: 'a', reported_at: '2020-01-01T08:00:00.000Z' });
    const live = await new ListIncidentsHandler(traffic, at('2020-01-01T19:00:00.000Z')).execute(new ListIncidentsQuery(null));
    expect(live.incidents.map((incident) => incident.id)).toHaveLength(1);
    const gone = await new ListIncidentsHandler(traffic, at('2020-01-01T20:00:01.000Z')).execute(new ListIncidentsQuery(null));
    expect(gone).toEqual({ incidents: [], count: 0 });
  });

  it('answers road traffic for the clock\'s hour when no `at` is given', async () => {
    const answer = await new RoadTrafficHandler(view(), at('2020-01-01T08:30:00.000Z')).execute(new RoadTrafficQuery(null));
    expect(answer).toMatchObject({ at: '2020-01-01T08:30:00.000Z', hour: 8 });
  });

  it('measures accuracy over the window ending at the clock', async () => {
    const traffic = view();
    const sampledAt = Date.parse('2020-01-01T08:00:00.000Z');
    traffic.learned.add({ at: sampledAt, bucket: 8, cells: ['88754e6499fffff'], observed_s: 300, static_s: 200 });
    const inside = await new TrafficAccuracyHandler(traffic, { now: () => new Date(sampledAt + 60_000) }).execute();
    const after = await new TrafficAccuracyHandler(traffic, { now: () => new Date(sampledAt + (ACCURACY_WINDOW_DAYS + 1) * 86_400_000) }).execute();
    expect(inside.samples).toBe(1);
    expect(after.samples).toBe(0);
  });
});
