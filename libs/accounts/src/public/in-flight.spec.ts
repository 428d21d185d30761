import { InFlight } from './in-flight.js';

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

describe("InFlight: a key's refusal holds", () => {
  it('holds the key refused, and not another', () => {
    const inFlight = new InFlight({ expensiveConcurrencyPerKey: 2 });
    inFlight.refused('a', 1_000);
    expect(inFlight.holdMs('a', 1_001)).toBe(100);
    expect(inFlight.holdMs('b', 1_001)).toBe(0);
  });
});
