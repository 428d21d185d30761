import { assessAddressEvidence, nightOf, solarHour, type EvidencePosition } from './kyc.js';

const address = { lat: 5.6037, lng: -0.187, accuracy_m: 4 };
const at = (day: number, hour: number, metresNorth = 10, accuracy_m: number | null = 10, source: EvidencePosition['source'] = 'request'): EvidencePosition => ({
  lat: address.lat + metresNorth / 111_195,
  lng: address.lng,
  accuracy_m,
  recorded_at: new Date(Date.UTC(2026, 10, day, hour, 30)).toISOString(),
  source,
});

describe('KYC address evidence', () => {
  it('night is 22:00 to 05:00 local solar time, named by the evening’s date', () => {
    expect(solarHour(new Date('2026-11-20T23:00:00Z'), 0)).toBe(23);
    expect(solarHour(new Date('2026-11-20T23:00:00Z'), 30)).toBe(1);
    expect(nightOf(new Date('2026-11-20T23:00:00Z'), 0)).toBe('2026-11-20');
    expect(nightOf(new Date('2026-11-21T04:00:00Z'), 0)).toBe('2026-11-20');
    expect(nightOf(new Date('2026-11-21T12:00:00Z'), 0)).toBeUndefined();
    // Nairobi (36.8° E): 20:00 UTC is 22:27 solar time, night.
    expect(nightOf(new Date('2026-11-20T20:00:00Z'), 36.8)).toBe('2026-11-20');
  });

  it('verified when most positions and nights are at the address', () => {
    const positions = [at(20, 23), at(21, 12), at(21, 23), at(22, 9), at(22, 23), at(22, 14, 2000)];
    const assessed = assessAddressEvidence(address, positions, 'not_requested');
    expect(assessed).toMatchObject({ result: 'verified', radius_m: 100, evidence: { usable: 6, in_zone: 5, days_observed: 3, nights_observed: 3, nights_at_home: 3 } });
    expect(assessed.score).toBe(Math.round((0.6 * (5 / 6) + 0.4) * 100) / 100);
    expect(assessed.reasons.map((reason) => reason.code)).toEqual(['mostly_in_zone', 'home_at_night']);
  });

  it('not verified when the nights are spent elsewhere, though the days are at the address', () => {
    const positions = [at(20, 10), at(20, 23, 3000), at(21, 11), at(21, 23, 3000), at(22, 12), at(22, 23, 3000)];
    const assessed = assessAddressEvidence(address, positions, 'not_requested');
    expect(assessed).toMatchObject({ result: 'not_verified', score: 0.3, evidence: { in_zone: 3, nights_observed: 3, nights_at_home: 0 } });
    expect(assessed.reasons.map((reason) => reason.code)).toEqual(['mostly_outside_zone', 'away_at_night']);
  });

  it('without night positions the score is the share in the zone', () => {
    const positions = [at(20, 10), at(20, 15), at(21, 11), at(21, 16), at(22, 12)];
    expect(assessAddressEvidence(address, positions, 'none_recorded')).toMatchObject({ result: 'verified', score: 1, reasons: [{ code: 'mostly_in_zone' }, { code: 'no_night_positions' }] });
  });

  it('insufficient evidence below 5 usable positions or 2 days; imprecise positions do not count', () => {
    expect(assessAddressEvidence(address, [at(20, 10), at(21, 10), at(22, 10), at(23, 10)], 'no_consent')).toMatchObject({
      result: 'insufficient_evidence',
      score: null,
      reasons: [{ code: 'recorded_pings_not_consented' }, { code: 'too_few_positions' }],
    });
    const oneDay = [10, 11, 12, 13, 14, 15].map((hour) => at(20, hour));
    expect(assessAddressEvidence(address, oneDay, 'used')).toMatchObject({ result: 'insufficient_evidence', reasons: [{ code: 'too_few_days' }] });
    const vague = [at(20, 10, 10, 400), at(20, 11, 10, 400), at(21, 10), at(21, 11), at(22, 10), at(22, 11)];
    expect(assessAddressEvidence(address, vague, 'used')).toMatchObject({ result: 'insufficient_evidence', evidence: { usable: 4 }, reasons: [{ code: 'imprecise_positions_ignored' }, { code: 'too_few_positions' }] });
  });

  it('positions without an accuracy are taken as 100 m, and recorded pings count with the request’s positions', () => {
    const positions = [at(20, 10, 10, null, 'recorded_ping'), at(20, 11, 10, null, 'recorded_ping'), at(21, 10), at(21, 11), at(22, 10, 140, null)];
    expect(assessAddressEvidence(address, positions, 'used')).toMatchObject({ result: 'verified', evidence: { from_request: 3, from_recorded_pings: 2, usable: 5, in_zone: 5 } });
  });

  it('an address known only to more than 1 km cannot be verified', () => {
    const positions = [at(20, 23), at(21, 12), at(21, 23), at(22, 9), at(22, 23)];
    expect(assessAddressEvidence({ ...address, accuracy_m: 5000 }, positions, 'not_requested')).toMatchObject({ result: 'insufficient_evidence', reasons: [{ code: 'address_too_coarse' }] });
  });
});
