import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { blocksRoads, hazardReportDecider, IncidentBoard, type HazardReported } from './hazard.js';

const report = (id: string, kind: HazardReported['data']['kind'], lat: number, reporter: string, at: string): HazardReported['data'] => ({ report_id: id, kind, lat, lng: -0.2, note: null, reporter, reported_at: at });

describe('hazard reports', () => {
  const spec = deciderSpec(hazardReportDecider);
  const now = new Date('2026-11-23T09:00:00Z');

  it('records a report of a known kind, and refuses an unknown kind naming the field', () => {
    expect(spec.given([]).when({ type: 'ReportHazard', report_id: 'r1', kind: 'police', lat: 5.6, lng: -0.2, reporter: 'h1' }, now).events).toEqual([
      { type: 'HazardReported', data: { report_id: 'r1', kind: 'police', lat: 5.6, lng: -0.2, note: null, reporter: 'h1', reported_at: now.toISOString() } },
    ]);
    expect(spec.given([]).when({ type: 'ReportHazard', report_id: 'r2', kind: 'volcano', lat: 5.6, lng: -0.2, reporter: 'h1' }, now).error).toMatchObject({ code: 'INVALID_PARAM', field: 'kind' });
  });
});

describe('the incident board', () => {
  it('merges reports of one kind within 150 m, counts distinct reporters, and blocks only corroborated floods', () => {
    const board = new IncidentBoard();
    board.apply(report('a', 'flooding', 5.6, 'h1', '2026-11-23T09:00:00.000Z'));
    board.apply(report('b', 'flooding', 5.6, 'h1', '2026-11-23T09:05:00.000Z'));
    expect(board.active(new Date('2026-11-23T09:10:00Z'))).toMatchObject([{ corroborations: 1 }]);
    expect(blocksRoads(board.active(new Date('2026-11-23T09:10:00Z'))[0])).toBe(false);
    board.apply(report('c', 'flooding', 5.6009, 'h2', '2026-11-23T10:00:00.000Z'));
    board.apply(report('d', 'police', 5.6, 'h3', '2026-11-23T10:00:00.000Z'));
    board.apply(report('e', 'flooding', 5.61, 'h4', '2026-11-23T10:00:00.000Z'));
    const live = board.active(new Date('2026-11-23T10:30:00Z'));
    expect(live.map((incident) => [incident.kind, incident.corroborations, blocksRoads(incident)])).toEqual([
      ['flooding', 2, true],
      ['police', 1, false],
      ['flooding', 1, false],
    ]);
    // Corroboration restarted the flood's 12 hours from 10:00; police lasts 2 hours.
    expect(live[0].expires_at).toBe('2026-11-23T22:00:00.000Z');
    expect(board.active(new Date('2026-11-23T12:30:00Z')).map((incident) => incident.kind)).toEqual(['flooding', 'flooding']);
    expect(board.active(new Date('2026-11-23T22:30:00Z'))).toEqual([]);
  });

  it('never counts a police report or an accident as blocking, whatever the count', () => {
    const board = new IncidentBoard();
    for (const [i, reporter] of ['h1', 'h2', 'h3'].entries()) board.apply(report(`p${i}`, 'accident', 5.6, reporter, '2026-11-23T09:00:00.000Z'));
    expect(board.active(new Date('2026-11-23T09:01:00Z')).map((incident) => [incident.corroborations, blocksRoads(incident)])).toEqual([[3, false]]);
  });
});
