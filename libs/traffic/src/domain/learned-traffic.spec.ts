import { random } from '../../../routing/src/testing/synthetic-roads.js';
import { LearnedTraffic } from './learned-traffic.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('learned traffic, evaluated prequentially', () => {
  it('reports no win and no MAPE without samples', () => {
    expect(new LearnedTraffic().accuracy(NOW)).toEqual({ samples: 0, static_mape: null, learned_mape: null, learned_wins: false });
  });

  it('beats the static model on arrivals drawn from a known congestion pattern', () => {
    // The "true" pattern: cells a..d are 1.8× slower at 08:00, e..h free; observations carry ±10 % noise.
    const truth: Record<string, number> = { a: 1.8, b: 1.8, c: 1.8, d: 1.8, e: 1, f: 1, g: 1, h: 1 };
    const cells = Object.keys(truth);
    const next = random(7);
    const learned = new LearnedTraffic();
    for (let i = 0; i < 200; i++) {
      const trip = [cells[Math.floor(next() * 8)], cells[Math.floor(next() * 8)]];
      const staticS = 600 + next() * 600;
      const factor = Math.exp(trip.reduce((sum, cell) => sum + Math.log(truth[cell]), 0) / trip.length);
      learned.add({ at: NOW - 10 * DAY + i * 60_000, bucket: 8, cells: trip, static_s: staticS, observed_s: staticS * factor * (0.9 + next() * 0.2) });
    }
    const report = learned.accuracy(NOW);
    expect(report.samples).toBe(200);
    expect(report.learned_wins).toBe(true);
    expect(report.learned_mape!).toBeLessThan(report.static_mape! / 2);
    expect(learned.factor('a', 8)).toBeGreaterThan(1.3);
    expect(learned.factor('a', 9)).toBeUndefined();
  });

  it('does not win when the static model was already right', () => {
    const learned = new LearnedTraffic();
    for (let i = 0; i < 20; i++) learned.add({ at: NOW - DAY + i, bucket: 8, cells: ['a'], static_s: 600, observed_s: 600 });
    expect(learned.accuracy(NOW)).toMatchObject({ samples: 20, static_mape: 0, learned_mape: 0, learned_wins: false });
  });

  it('counts only the last 14 days', () => {
    const learned = new LearnedTraffic();
    learned.add({ at: NOW - 20 * DAY, bucket: 8, cells: ['a'], static_s: 600, observed_s: 1200 });
    expect(learned.accuracy(NOW).samples).toBe(0);
    expect(learned.samples).toBe(1);
  });
});
