import { parseBbox } from './bbox.js';

describe('bbox (north,south,east,west; docs/adr/0036)', () => {
  it('reads the interface order', () => {
    expect(parseBbox('5.7,5.5,-0.1,-0.3')).toEqual({ box: { north: 5.7, south: 5.5, east: -0.1, west: -0.3 }, legacy: false });
  });

  it('reads the deprecated minLng,minLat,maxLng,maxLat only when asked, and only when the interface order cannot hold', () => {
    expect(parseBbox('-0.3,5.5,-0.1,5.7', { legacyLngLat: true })).toEqual({ box: { north: 5.7, south: 5.5, east: -0.1, west: -0.3 }, legacy: true });
    expect(() => parseBbox('-0.3,5.5,-0.1,5.7')).toThrow(/north must be greater than south/);
    // Valid both ways: the interface's reading wins.
    expect(parseBbox('5,4,6,5', { legacyLngLat: true })).toEqual({ box: { north: 5, south: 4, east: 6, west: 5 }, legacy: false });
  });

  it.each(['1,2,3', '5.7,5.5,-0.1,', 'a,b,c,d', '95,5,1,0', '5.7,5.5,-0.3,-0.1', '5.5,5.7,-0.3,-0.1'])('refuses %s naming bbox', (text) => {
    expect(() => parseBbox(text, { legacyLngLat: true })).toThrow(expect.objectContaining({ code: 'INVALID_PARAM', field: 'bbox' }));
  });

  it('bounds the span when told', () => {
    expect(() => parseBbox('8,5,1,-2', { maxDegrees: 2 })).toThrow(/at most 2°/);
  });
});
