import { random } from '../../../routing/src/testing/synthetic-roads.js';
import { LOW_TRUST_WEIGHT } from './arrival.js';
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

describe('learned traffic: one reporter is one client, and free or young accounts weigh half (docs/adr/0056)', () => {
  const slow = (learned: LearnedTraffic, reporter_ids: string[], count: number, reporter_weight = 1, at = NOW) => {
    for (let i = 0; i < count; i++) learned.add({ at: at + i, bucket: 8, cells: ['a'], static_s: 600, observed_s: 1200, reporter: reporter_ids[reporter_ids.length - 1], reporter_ids, reporter_weight });
  };

  it('counts accounts behind one address as one reporter, and one account on many addresses as one', () => {
    const shared = new LearnedTraffic();
    for (const account of ['account:a', 'account:b', 'account:c']) slow(shared, ['ip:1', account], 2, LOW_TRUST_WEIGHT);
    expect(shared.estimate('a', 8)).toMatchObject({ source: 'prior', samples: 6, reporters: 1 });
    expect(shared.hasLearned()).toBe(false);
    // The same six samples at full weight: still one reporter, still the prior.
    const paying = new LearnedTraffic();
    for (const account of ['account:a', 'account:b', 'account:c']) slow(paying, ['ip:1', account], 2);
    expect(paying.estimate('a', 8)).toMatchObject({ source: 'prior', reporters: 1 });
    const roaming = new LearnedTraffic();
    for (const ip of ['ip:1', 'ip:2', 'ip:3', 'ip:4']) slow(roaming, [ip, 'account:a'], 2);
    expect(roaming.estimate('a', 8)).toMatchObject({ source: 'prior', samples: 8, reporters: 1 });
  });

  it('opens the gate for three full-weight reporters, or six half-weight ones, on distinct addresses and accounts', () => {
    const distinct = (count: number, weight: number) => {
      const learned = new LearnedTraffic();
      for (let r = 0; r < count; r++) slow(learned, [`ip:${r}`, `account:${r}`], REPORTER_WEIGHT_CAP, weight);
      return learned.estimate('a', 8)!;
    };
    const full = distinct(MIN_REPORTERS, 1);
    expect(full).toMatchObject({ source: 'learned', reporters: MIN_REPORTERS, weight: MIN_REPORTERS * REPORTER_WEIGHT_CAP });
    expect(distinct(MIN_REPORTERS, LOW_TRUST_WEIGHT)).toMatchObject({ source: 'prior', reporters: MIN_REPORTERS });
    expect(distinct(2 * MIN_REPORTERS - 1, LOW_TRUST_WEIGHT).source).toBe('prior');
    const half = distinct(2 * MIN_REPORTERS, LOW_TRUST_WEIGHT);
    expect(half).toMatchObject({ source: 'learned', reporters: 2 * MIN_REPORTERS });
    // Half the weight per sample, twice the reporters: the same evidence against the prior, the same figure.
    expect(half.weight).toBeCloseTo(full.weight, 6);
    expect(half.factor).toBeCloseTo(full.factor, 6);
    expect(full.factor).toBeCloseTo(Math.exp((full.weight * Math.log(2)) / (PRIOR_WEIGHT + full.weight)), 6);
  });

  it('caps a half-weight reporter at half a full reporter, however many samples it sends', () => {
    const learned = new LearnedTraffic();
    for (let r = 0; r < MIN_REPORTERS; r++) slow(learned, [`ip:${r}`, `account:${r}`], REPORTER_WEIGHT_CAP);
    const before = learned.estimate('a', 8)!.weight;
    slow(learned, ['ip:9', 'account:9'], 100, LOW_TRUST_WEIGHT, NOW + 10);
    expect(learned.estimate('a', 8)!.weight).toBeCloseTo(before + REPORTER_WEIGHT_CAP * LOW_TRUST_WEIGHT, 2);
  });

  it('closes the gate again when a report links two of its reporters, whatever order the samples came in', () => {
    const learned = new LearnedTraffic();
    for (let r = 0; r < MIN_REPORTERS; r++) slow(learned, [`ip:${r}`, `account:${r}`], REPORTER_WEIGHT_CAP);
    expect(learned.hasLearned()).toBe(true);
    // Account 0 reports from address 1: accounts 0 and 1 are one client.
    slow(learned, ['ip:1', 'account:0'], 1, 1, NOW + 10);
    expect(learned.estimate('a', 8)).toMatchObject({ source: 'prior', reporters: MIN_REPORTERS - 1, samples: MIN_REPORTERS * REPORTER_WEIGHT_CAP + 1 });
    expect(learned.hasLearned()).toBe(false);
    expect(learned.factor('a', 8)).toBeUndefined();
    // The linking sample first: the same reporters.
    const reordered = new LearnedTraffic();
    slow(reordered, ['ip:1', 'account:0'], 1, 1, NOW + 10);
    for (let r = MIN_REPORTERS - 1; r >= 0; r--) slow(reordered, [`ip:${r}`, `account:${r}`], REPORTER_WEIGHT_CAP);
    expect(reordered.estimate('a', 8)).toEqual(learned.estimate('a', 8));
  });

  it('reads arrivals stored before ADR 0056 as before: the reporter alone, at full weight', () => {
    const learned = new LearnedTraffic();
    for (let r = 0; r < MIN_REPORTERS; r++) for (let i = 0; i < REPORTER_WEIGHT_CAP; i++) learned.add({ at: NOW + i, bucket: 8, cells: ['a'], static_s: 600, observed_s: 1200, reporter: `account:${r}` });
    expect(learned.estimate('a', 8)).toMatchObject({ source: 'learned', reporters: MIN_REPORTERS, weight: MIN_REPORTERS * REPORTER_WEIGHT_CAP });
  });
});
