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
