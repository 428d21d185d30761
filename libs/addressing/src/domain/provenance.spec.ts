import { cellToBoundary, cellToLatLng, getHexagonEdgeLengthAvg, greatCircleDistance, latLngToCell } from 'h3-js';
import { callerPointProvenance, cellCentreProvenance, cellRadiusMeters, PROVENANCE_SOURCES } from './provenance.js';

describe('cell centre provenance', () => {
  it('is geocoded from the code, as sure as one unconfirmed statement (not 1), established by the code scheme (not at the decode), with a source from the specification', () => {
    const cell = latLngToCell(5.6037, -0.187, 13);
    const provenance = cellCentreProvenance(cell);
    expect(PROVENANCE_SOURCES).toContain(provenance.source);
    expect(provenance).toEqual({ source: 'geocoded_text', provider: 'hexcode-v1 (H3 v4 cell centre)', accuracy_meters: cellRadiusMeters(cell), confidence: 0.5, verified_at: '2026-11-22T00:00:00.000Z' });
    expect(provenance.confidence).toBe(callerPointProvenance('geocoded_text', undefined, cell, new Date()).confidence);
  });

  it('describes a caller’s point as the caller says, accurate to their accuracy or else to the cell', () => {
    const cell = latLngToCell(5.6037, -0.187, 13);
    const at = new Date('2026-11-23T12:00:00.000Z');
    // A named agent's confirmation: who confirmed is recorded; confidence by source, not 1 (ADR 30).
    expect(callerPointProvenance('agent_verified', 4, cell, at, undefined, 'agent-17')).toEqual({ source: 'agent_verified', provider: 'caller', accuracy_meters: 4, confidence: 0.8, verified_at: at.toISOString(), confirmed_by: 'agent-17' });
    expect(callerPointProvenance('device_gps', undefined, cell, at)).toMatchObject({ accuracy_meters: cellRadiusMeters(cell), confidence: 0.34 });
    expect(callerPointProvenance('device_gps', 8, cell, at, undefined, 'ignored')).toEqual({ source: 'device_gps', provider: 'caller', accuracy_meters: 8, confidence: 0.68, verified_at: at.toISOString() });
  });

  it.each([0, 5, 9, 13, 15])('bounds every corner of a resolution-%i cell', (res) => {
    const cell = latLngToCell(-1.29, 36.82, res);
    const radius = cellRadiusMeters(cell);
    const [lat, lng] = cellToLatLng(cell);
    for (const corner of cellToBoundary(cell)) expect(greatCircleDistance([lat, lng], corner, 'm')).toBeLessThanOrEqual(radius);
    expect(radius).toBeLessThan(getHexagonEdgeLengthAvg(res, 'm') * 1.6);
  });
});
