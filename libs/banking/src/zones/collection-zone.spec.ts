import { cellToLatLng } from 'h3-js';
import { parseCollectionZone, ZoneShape } from './collection-zone.js';

describe('collection zones', () => {
  it('parses the three shapes, each with an anchor inside', () => {
    expect(parseCollectionZone({ type: 'point', lat: 5.55, lng: -0.21, radius_m: 300 })).toEqual({ zone: { type: 'point', lat: 5.55, lng: -0.21, radius_m: 300 }, anchor: { lat: 5.55, lng: -0.21 } });
    const hex = parseCollectionZone({ type: 'hex', code: '6q3hqkq4za' });
    expect(hex.zone).toMatchObject({ type: 'hex', code: '6Q3-HQK-Q4ZA' });
    const ring = [[-0.22, 5.54], [-0.2, 5.54], [-0.2, 5.56], [-0.22, 5.56], [-0.22, 5.54]];
    const polygon = parseCollectionZone({ type: 'polygon', polygon: { type: 'Polygon', coordinates: [ring] } });
    expect(polygon.anchor.lat).toBeCloseTo(5.55, 6);
    expect(polygon.anchor.lng).toBeCloseTo(-0.21, 6);
  });

  it('names the field of what is wrong', () => {
    const field = (raw: unknown) => {
      try {
        parseCollectionZone(raw);
      } catch (error) {
        return (error as { field?: string }).field;
      }
      return undefined;
    };
    expect(field(null)).toBe('zone');
    expect(field({ type: 'circle' })).toBe('zone.type');
    expect(field({ type: 'point', lat: 5.55, lng: -0.21, radius_m: 5 })).toBe('zone.radius_m');
    expect(field({ type: 'point', lat: 95, lng: -0.21, radius_m: 300 })).toBe('zone.lat');
    expect(field({ type: 'point', lat: 5.55, lng: -0.21, radius_m: 300, code: 'x' })).toBe('zone.code');
    expect(field({ type: 'hex', code: '6Q3-HQK-Q4ZB' })).toBe('zone.code');
    expect(field({ type: 'polygon', polygon: { type: 'Polygon', coordinates: [[[0, 0], [1, 1], [0, 0]]] } })).toMatch(/^zone\.polygon/);
  });

  it('says inside (boundary included) or how far outside', () => {
    const circle = new ZoneShape({ type: 'point', lat: 5.55, lng: -0.21, radius_m: 300 });
    expect(circle.relate(5.55, -0.21)).toEqual({ inside: true, distance_m: 0 });
    const outside = circle.relate(5.56, -0.21);
    expect(outside.inside).toBe(false);
    expect(outside.distance_m).toBeGreaterThan(800);
    expect(outside.distance_m).toBeLessThan(850);
    const { zone } = parseCollectionZone({ type: 'hex', code: '6Q3-HQK-Q4ZA' });
    if (zone.type !== 'hex') throw new Error('not a hex zone');
    const [lat, lng] = cellToLatLng(zone.h3_cell);
    expect(new ZoneShape(zone).relate(lat, lng)).toEqual({ inside: true, distance_m: 0 });
    expect(new ZoneShape(zone).relate(lat + 0.001, lng).inside).toBe(false);
  });
});
