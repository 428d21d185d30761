import { assessAddressEvidence, nightOf, solarHour, type EvidencePosition } from './kyc.js';

const address = { lat: 5.6037, lng: -0.187, accuracy_m: 4 };
let serial = 0;
/** A fix `metresNorth` of the address on 2026-11-`day` at `hour`:30 UTC; fixes jitter by centimetres, as a device's do. */
const at = (day: number, hour: number, metresNorth = 10, accuracy_m: number | null = 10, source: EvidencePosition['source'] = 'request'): EvidencePosition => {
  const recorded_at = new Date(Date.UTC(2026, 10, day, hour, 30)).toISOString();
  return {
    lat: address.lat + metresNorth / 111_195,
    lng: address.lng + ++serial * 1e-7,
    accuracy_m,
    recorded_at,
    source,
    // A recorded ping arrives a minute after it was taken.
    ...(source === 'recorded_ping' ? { received_at: new Date(Date.parse(recorded_at) + 60_000).toISOString() } : {}),
  };
};
const recorded = (day: number, hour: number, metresNorth = 10) => at(day, hour, metresNorth, 10, 'recorded_ping');
/** Twelve recorded pings over five days and four nights, all at the address. */
const month = () => [15, 16, 17, 18, 19].flatMap((day) => [recorded(day, 9), recorded(day, 23)]).concat([recorded(20, 9), recorded(20, 12)]);

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

  it('asserted positions alone, however convincing, are likely at most, and say what would verify them', () => {
    const positions = [at(20, 23), at(21, 12), at(21, 23), at(22, 9), at(22, 23), at(22, 14, 2000)];
    const assessed = assessAddressEvidence(address, positions, 'not_requested');
    expect(assessed).toMatchObject({
      decision: 'likely',
      result: 'not_verified',
      radius_m: 100,
      evidence: { usable: 6, in_zone: 5, days_observed: 3, nights_observed: 3, nights_at_home: 3, asserted: { positions: 6, usable: 6 }, recorded: { positions: 0 }, bursts: { flagged: false } },
    });
    expect(assessed.score).toBe(Math.round((0.6 * (5 / 6) + 0.4) * 100) / 100);
    expect(assessed.reasons.map((reason) => reason.code)).toEqual(['mostly_in_zone', 'home_at_night', 'asserted_evidence_only']);
    expect(assessed.needed_for_verified.map((entry) => entry.code)).toEqual(['use_recorded_pings', 'recorded_pings', 'recorded_days', 'recorded_nights', 'recorded_span_hours']);
    expect(assessAddressEvidence(address, positions, 'no_consent').needed_for_verified[0]).toMatchObject({ code: 'location_consent', need: 'granted' });
  });

  it('verified from recorded pings that meet every threshold; not when a fraud check could not run', () => {
    const assessed = assessAddressEvidence(address, month(), 'used');
    expect(assessed).toMatchObject({ decision: 'verified', result: 'verified', score: 1, needed_for_verified: [], evidence: { recorded: { usable: 12, days: 6, nights: 5, nights_at_home: 5 } } });
    expect(assessed.evidence.recorded?.span_hours).toBeGreaterThan(72);
    expect(assessed.reasons.at(-1)).toMatchObject({ code: 'recorded_evidence_sufficient' });
    // A degraded check never upgrades: fewer signals ran, so the top rung is out of reach.
    const degraded = assessAddressEvidence(address, month(), 'used', { flags: [], degraded: true, degraded_checks: ['velocity'] });
    expect(degraded).toMatchObject({ decision: 'likely', needed_for_verified: [{ code: 'fraud_checks_complete' }] });
    // Too few recorded pings: likely, with how many more.
    const few = assessAddressEvidence(address, month().slice(0, 6), 'used');
    expect(few).toMatchObject({ decision: 'likely', needed_for_verified: [{ code: 'recorded_pings', have: 6, need: 10 }, { code: 'recorded_days', have: 3, need: 4 }, { code: 'recorded_span_hours', have: 62, need: 72 }] });
  });

  it('failed when the nights are spent elsewhere, though the days are at the address', () => {
    const positions = [at(20, 10), at(20, 23, 3000), at(21, 11), at(21, 23, 3000), at(22, 12), at(22, 23, 3000)];
    const assessed = assessAddressEvidence(address, positions, 'not_requested');
    expect(assessed).toMatchObject({ decision: 'failed', result: 'not_verified', score: 0.3, evidence: { in_zone: 3, nights_observed: 3, nights_at_home: 0 } });
    expect(assessed.reasons.map((reason) => reason.code)).toEqual(['mostly_outside_zone', 'away_at_night']);
  });

  it('without night positions the score is the share in the zone', () => {
    const positions = [at(20, 10), at(20, 15), at(21, 11), at(21, 16), at(22, 12)];
    expect(assessAddressEvidence(address, positions, 'none_recorded')).toMatchObject({ decision: 'likely', score: 1, reasons: [{ code: 'mostly_in_zone' }, { code: 'no_night_positions' }, { code: 'asserted_evidence_only' }] });
  });

  it('inconclusive below 5 usable positions or 2 days; imprecise positions do not count', () => {
    expect(assessAddressEvidence(address, [at(20, 10), at(21, 10), at(22, 10), at(23, 10)], 'no_consent')).toMatchObject({
      decision: 'inconclusive',
      result: 'insufficient_evidence',
      score: null,
      reasons: [{ code: 'recorded_pings_not_consented' }, { code: 'too_few_positions' }],
    });
    const oneDay = [10, 11, 12, 13, 14, 15].map((hour) => at(20, hour));
    expect(assessAddressEvidence(address, oneDay, 'used')).toMatchObject({ decision: 'inconclusive', reasons: [{ code: 'too_few_days' }] });
    const vague = [at(20, 10, 10, 400), at(20, 11, 10, 400), at(21, 10), at(21, 11), at(22, 10), at(22, 11)];
    expect(assessAddressEvidence(address, vague, 'used')).toMatchObject({ decision: 'inconclusive', evidence: { usable: 4 }, reasons: [{ code: 'imprecise_positions_ignored' }, { code: 'too_few_positions' }] });
  });

  it('positions without an accuracy are taken as 100 m, and recorded pings count with the request’s positions', () => {
    const positions = [at(20, 10, 10, null, 'recorded_ping'), at(20, 11, 10, null, 'recorded_ping'), at(21, 10), at(21, 11), at(22, 10, 140, null)];
    expect(assessAddressEvidence(address, positions, 'used')).toMatchObject({
      decision: 'likely',
      evidence: { from_request: 3, from_recorded_pings: 2, usable: 5, in_zone: 5, recorded: { usable: 2, median_accuracy_m: 100 }, asserted: { usable: 3 } },
    });
  });

  it('an address known only to more than 1 km cannot be verified', () => {
    const positions = [at(20, 23), at(21, 12), at(21, 23), at(22, 9), at(22, 23)];
    expect(assessAddressEvidence({ ...address, accuracy_m: 5000 }, positions, 'not_requested')).toMatchObject({ decision: 'inconclusive', reasons: [{ code: 'address_too_coarse' }] });
  });

  describe('bursts send the decision to review', () => {
    it('many positions with one timestamp (positions sent without a time all take the request’s)', () => {
      const positions = [at(20, 10), at(21, 10), at(22, 10), at(22, 10), at(22, 10)];
      expect(assessAddressEvidence(address, positions, 'not_requested')).toMatchObject({ decision: 'review', evidence: { bursts: { flags: ['same_timestamp'] } }, reasons: [{ code: 'same_timestamp' }] });
    });

    it('identical coordinates to the last decimal', () => {
      const positions = [at(20, 10), at(20, 23), at(21, 10), at(21, 23), at(22, 10)].map((position) => ({ ...position, lat: 5.6038, lng: -0.187 }));
      expect(assessAddressEvidence(address, positions, 'not_requested')).toMatchObject({ decision: 'review', evidence: { bursts: { flags: ['identical_coordinates'] } } });
    });

    it('recorded pings that arrived much faster than they were recorded (a month posted at once)', () => {
      const posted = month().map((ping) => ({ ...ping, received_at: '2026-11-21T00:00:00.000Z' }));
      const assessed = assessAddressEvidence(address, posted, 'used');
      expect(assessed).toMatchObject({ decision: 'review', evidence: { bursts: { flags: ['arrived_faster_than_recorded'] } } });
      expect(assessed.reasons[0].message).toMatch(/arrived within 0 h/);
    });

    it('consecutive positions that imply impossible travel', () => {
      const positions = [at(20, 10), at(20, 23), at(21, 10), { ...at(21, 10), recorded_at: '2026-11-21T10:35:00.000Z', lat: 6.6885, lng: -1.6244 }, at(22, 10)];
      expect(assessAddressEvidence(address, positions, 'not_requested')).toMatchObject({ decision: 'review', evidence: { bursts: { flags: ['impossible_travel'] } } });
    });
  });

  it('a fraud flag sends even recorded evidence to review; a position the client reported as simulated fails it', () => {
    expect(assessAddressEvidence(address, month(), 'used', { flags: ['velocity'], degraded: false, degraded_checks: [] })).toMatchObject({ decision: 'review', score: null, reasons: [{ code: 'fraud_velocity' }] });
    const mocked = month().map((ping, index) => (index === 0 ? { ...ping, mock_location: true } : ping));
    expect(assessAddressEvidence(address, mocked, 'used')).toMatchObject({ decision: 'failed', result: 'not_verified', evidence: { mock_locations: 1 }, reasons: [{ code: 'mock_location_reported' }] });
  });
});
