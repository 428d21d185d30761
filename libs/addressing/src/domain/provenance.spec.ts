import { cellToBoundary, cellToLatLng, getHexagonEdgeLengthAvg, greatCircleDistance, latLngToCell } from 'h3-js';
import { cellCentreProvenance, cellRadiusMeters, PROVENANCE_SOURCES } from './provenance.js';

describe('cell centre provenance', () => {
  it('is geocoded from the code, exact, never verified, with a source from the specification', () => {
    const provenance = cellCentreProvenance(latLngToCell(5.6037, -0.187, 13));
    expect(PROVENANCE_SOURCES).toContain(provenance.source);
    expect(provenance).toMatchObject({ source: 'geocoded_text', confidence: 1, verified_at: null });
  });

  it.each([0, 5, 9, 13, 15])('bounds every corner of a resolution-%i cell', (res) => {
    const cell = latLngToCell(-1.29, 36.82, res);
    const radius = cellRadiusMeters(cell);
    const [lat, lng] = cellToLatLng(cell);
    for (const corner of cellToBoundary(cell)) expect(greatCircleDistance([lat, lng], corner, 'm')).toBeLessThanOrEqual(radius);
    expect(radius).toBeLessThan(getHexagonEdgeLengthAvg(res, 'm') * 1.6);
  });
});
