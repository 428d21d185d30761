import { random } from '../../../routing/src/testing/synthetic-roads.js';
import { LearnedTraffic, MAX_FACTOR, MIN_REPORTERS, MIN_SAMPLES, PRIOR_WEIGHT, REPORTER_WEIGHT_CAP } from './learned-traffic.js';

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
      learned.add({ at: NOW - 10 * DAY + i * 60_000, bucket: 8, cells: trip, static_s: staticS, observed_s: staticS * factor * (0.9 + next() * 0.2), reporter: `driver${i % 20}` });
    }
    const report = learned.accuracy(NOW);
    expect(report.samples).toBe(200);
    expect(report.learned_wins).toBe(true);
    // The first samples of each cell are predicted with the prior until the gate opens (ADR 0031), so the win is smaller than an ungated mean's.
    expect(report.learned_mape!).toBeLessThan(report.static_mape! * 0.6);
    expect(learned.factor('a', 8)).toBeGreaterThan(1.3);
    expect(learned.factor('a', 9)).toBeUndefined();
  });

  it('does not win when the static model was already right', () => {
    const learned = new LearnedTraffic();
    for (let i = 0; i < 20; i++) learned.add({ at: NOW - DAY + i, bucket: 8, cells: ['a'], static_s: 600, observed_s: 600, reporter: `driver${i % 4}` });
    expect(learned.accuracy(NOW)).toMatchObject({ samples: 20, static_mape: 0, learned_mape: 0, learned_wins: false });
  });

  it('counts only the last 14 days', () => {
    const learned = new LearnedTraffic();
    learned.add({ at: NOW - 20 * DAY, bucket: 8, cells: ['a'], static_s: 600, observed_s: 1200 });
    expect(learned.accuracy(NOW).samples).toBe(0);
    expect(learned.samples).toBe(1);
  });
});

describe('learned traffic: crowd input is gated, shrunk and capped per reporter (docs/adr/0031)', () => {
  const slow = (learned: LearnedTraffic, reporter: string, count: number, at = NOW) => {
    for (let i = 0; i < count; i++) learned.add({ at: at + i, bucket: 8, cells: ['a'], static_s: 600, observed_s: 1800, reporter });
  };

  it('keeps the prior however many samples one reporter sends', () => {
    const learned = new LearnedTraffic();
    slow(learned, 'one', 500);
    expect(learned.estimate('a', 8)).toMatchObject({ factor: 1, source: 'prior', samples: 500, reporters: 1 });
    expect(learned.factor('a', 8)).toBeUndefined();
    expect(learned.hasLearned()).toBe(false);
    // The prediction (and so the accuracy report) stays the static model's.
    expect(learned.predict(['a'], 8, 600)).toBe(600);
  });

  it('keeps the prior below the reporter count or the sample count, and learns once both are met', () => {
    const learned = new LearnedTraffic();
    for (let r = 0; r < MIN_REPORTERS - 1; r++) slow(learned, `r${r}`, 10);
    expect(learned.estimate('a', 8)!.source).toBe('prior');
    const few = new LearnedTraffic();
    for (let r = 0; r < MIN_REPORTERS; r++) slow(few, `r${r}`, 1);
    expect(MIN_REPORTERS).toBeLessThan(MIN_SAMPLES);
    expect(few.estimate('a', 8)!.source).toBe('prior');
    slow(few, 'r0', MIN_SAMPLES - MIN_REPORTERS);
    expect(few.estimate('a', 8)!.source).toBe('learned');
    expect(few.hasLearned()).toBe(true);
    // Another hour of the same cell learned nothing.
    expect(few.estimate('a', 9)).toBeUndefined();
  });

  it('shrinks the learned mean toward the prior, less as evidence grows, and caps each reporter', () => {
    const learned = new LearnedTraffic();
    for (let r = 0; r < MIN_REPORTERS; r++) slow(learned, `r${r}`, REPORTER_WEIGHT_CAP);
    const weight = MIN_REPORTERS * REPORTER_WEIGHT_CAP;
    const estimate = learned.estimate('a', 8)!;
    expect(estimate.weight).toBeCloseTo(weight, 6);
    expect(estimate.factor).toBeCloseTo(Math.exp((weight * Math.log(3)) / (PRIOR_WEIGHT + weight)), 6);
    expect(estimate.factor).toBeLessThan(3);
    // One reporter flooding the cell with "free road" samples moves it by no more than its capped weight.
    slow(learned, 'r0', 0);
    for (let i = 0; i < 1000; i++) learned.add({ at: NOW + 10 + i, bucket: 8, cells: ['a'], static_s: 600, observed_s: 600, reporter: 'flooder' });
    const flooded = learned.estimate('a', 8)!;
    expect(flooded.weight).toBeCloseTo(weight + REPORTER_WEIGHT_CAP, 3);
    expect(flooded.factor).toBeCloseTo(Math.exp((weight * Math.log(3)) / (PRIOR_WEIGHT + weight + REPORTER_WEIGHT_CAP)), 3);
    // More independent reporters agreeing pull it further from the prior.
    const many = new LearnedTraffic();
    for (let r = 0; r < 20; r++) slow(many, `r${r}`, REPORTER_WEIGHT_CAP);
    expect(many.estimate('a', 8)!.factor).toBeGreaterThan(estimate.factor);
    expect(many.estimate('a', 8)!.factor).toBeLessThanOrEqual(MAX_FACTOR);
  });
});
