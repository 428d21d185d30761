import { riskLevel, riskScore } from './risk.js';

const none = { out_of_zone: false, not_seen: false, drifting: false, weather_alert: false, loans_in_hex: 1 };

describe('risk score', () => {
  it('adds the documented weights, concentration in proportion to the loans in the hex', () => {
    expect(riskScore(none, 20)).toBe(1);
    expect(riskScore({ ...none, out_of_zone: true }, 20)).toBe(36);
    expect(riskScore({ ...none, out_of_zone: true, not_seen: true, drifting: true }, 20)).toBe(81);
    expect(riskScore({ ...none, loans_in_hex: 10 }, 20)).toBe(5);
    expect(riskScore({ out_of_zone: true, not_seen: true, drifting: true, weather_alert: true, loans_in_hex: 500 }, 20)).toBe(100);
  });

  it('grades 60 and more high, 30 and more medium', () => {
    expect([riskLevel(60), riskLevel(59), riskLevel(30), riskLevel(29)]).toEqual(['high', 'medium', 'medium', 'low']);
  });
});
