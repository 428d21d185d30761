import { InFlight, REFUSAL_HOLD_MAX_MS, REFUSAL_HOLD_STEP_MS, REFUSAL_MEMORY_MS } from './in-flight.js';

describe('InFlight', () => {
  it('gives each key at most max slots, and a released slot back once', () => {
    const inFlight = new InFlight({ expensiveConcurrencyPerKey: 2 });
    const first = inFlight.acquire('a')!;
    const second = inFlight.acquire('a')!;
    expect(inFlight.acquire('a')).toBeUndefined();
    expect(inFlight.acquire('b')).toBeDefined();
    first();
    first();
    expect(inFlight.held('a')).toBe(1);
    const third = inFlight.acquire('a');
    expect(third).toBeDefined();
    expect(inFlight.acquire('a')).toBeUndefined();
    second();
    third!();
    expect(inFlight.held('a')).toBe(0);
  });
});

describe('InFlight: holding a key just refused for its quota (ADR 0043)', () => {
  it('holds nothing for a key never refused, or refused long enough ago', () => {
    const inFlight = new InFlight({ expensiveConcurrencyPerKey: 2 });
    expect(inFlight.holdMs('a', 1_000)).toBe(0);
    inFlight.refused('a', 1_000);
    expect(inFlight.holdMs('b', 1_001)).toBe(0);
    expect(inFlight.holdMs('a', 1_000 + REFUSAL_MEMORY_MS)).toBe(0);
    // Forgotten: refused again later, it starts from one step.
    inFlight.refused('a', 10_000);
    expect(inFlight.holdMs('a', 10_001)).toBe(REFUSAL_HOLD_STEP_MS);
  });

  it('holds a step longer for each refusal in a row, up to the most, including refusals that came after a full hold', () => {
    const inFlight = new InFlight({ expensiveConcurrencyPerKey: 2 });
    let now = 0;
    const holds: number[] = [];
    for (let i = 0; i < 14; i++) {
      inFlight.refused('a', now);
      const hold = inFlight.holdMs('a', now + 1);
      holds.push(hold);
      // A client that resends at once is refused again when its hold ends.
      now += 1 + hold + 5;
    }
    expect(holds).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1000, 1000, 1000, 1000]);
    expect(Math.max(...holds)).toBe(REFUSAL_HOLD_MAX_MS);
  });
});
