import { assessProximity, devicePointProvenance, radiusFor, withinRadius } from './proximity.js';

/** A point `metres` north of `from` (1° of latitude ≈ 111,195 m on H3's sphere). */
const north = (from: { lat: number; lng: number }, metres: number) => ({ lat: from.lat + metres / 111_195, lng: from.lng });
const address = { lat: 5.6037, lng: -0.187, accuracy_m: 4 };

describe('proximity', () => {
  it('the radius is 100 m, or the claimed point’s own accuracy when coarser', () => {
    expect(radiusFor({ accuracy_m: 4 })).toBe(100);
    expect(radiusFor({ accuracy_m: 250.2 })).toBe(251);
  });

  it('within up to the radius plus at most 50 m of the fix’s accuracy', () => {
    expect(withinRadius(100, 100, 0)).toBe(true);
    expect(withinRadius(100.1, 100, 0)).toBe(false);
    expect(withinRadius(140, 100, 40)).toBe(true);
    expect(withinRadius(149, 100, 150)).toBe(true);
    expect(withinRadius(151, 100, 150)).toBe(false);
  });

  it('decides within, outside, and inconclusive for a vague fix', () => {
    expect(assessProximity(address, { ...north(address, 30), accuracy_m: 10 })).toMatchObject({ decision: 'within', radius_m: 100, reasons: ['within_radius'] });
    expect(assessProximity(address, { ...north(address, 30), accuracy_m: 10 }).distance_m).toBeCloseTo(30, 0);
    expect(assessProximity(address, { ...north(address, 135), accuracy_m: 40 })).toMatchObject({ decision: 'within' });
    expect(assessProximity(address, { ...north(address, 145), accuracy_m: 40 })).toMatchObject({ decision: 'outside', reasons: ['outside_radius'] });
    expect(assessProximity(address, { ...north(address, 160), accuracy_m: 200 })).toMatchObject({ decision: 'inconclusive', reasons: ['gps_accuracy_too_poor'] });
    expect(assessProximity(address, { ...north(address, 20), accuracy_m: 151 })).toMatchObject({ decision: 'inconclusive' });
    // Even its nearest reading is outside: a vague fix far away is still outside.
    expect(assessProximity(address, { ...north(address, 5000), accuracy_m: 400 })).toMatchObject({ decision: 'outside', reasons: ['outside_radius'] });
  });

  it('an address known only to more than 1 km is an area: never within', () => {
    const town = { ...address, accuracy_m: 5000 };
    expect(assessProximity(town, { ...north(town, 10), accuracy_m: 5 })).toMatchObject({ decision: 'inconclusive', radius_m: 5000, reasons: ['address_too_coarse'] });
    expect(assessProximity(town, { ...north(town, 20_000), accuracy_m: 5 })).toMatchObject({ decision: 'outside' });
  });

  it('a device point’s provenance: device_gps, as accurate as its fix, 68% sure, established when the fix was taken', () => {
    // Established when the device took the fix, not when it was sent.
    expect(devicePointProvenance({ accuracy_m: 12, recorded_at: '2026-11-23T10:00:00.000Z' })).toEqual({ source: 'device_gps', provider: 'caller', accuracy_meters: 12, confidence: 0.68, verified_at: '2026-11-23T10:00:00.000Z' });
    // No reported accuracy: 100 m taken, half the confidence; a fix the client flagged as simulated: none.
    expect(devicePointProvenance({ accuracy_m: null, recorded_at: '2026-11-23T10:00:00.000Z' })).toMatchObject({ accuracy_meters: 100, confidence: 0.34 });
    expect(devicePointProvenance({ accuracy_m: 5, recorded_at: '2026-11-23T10:00:00.000Z', mock_location: true })).toMatchObject({ accuracy_meters: 5, confidence: 0 });
  });
});
