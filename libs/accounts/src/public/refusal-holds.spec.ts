import { REFUSAL_HOLD_MAX_MS, REFUSAL_HOLD_STEP_MS, REFUSAL_MEMORY_MS, RefusalHolds } from './refusal-holds.js';

describe('RefusalHolds: holding a caller just refused (ADR 0043, 0044)', () => {
  it('holds nothing for a caller never refused, or refused long enough ago', () => {
    const holds = new RefusalHolds();
    expect(holds.holdMs('a', 1_000)).toBe(0);
    holds.refused('a', 1_000);
    expect(holds.holdMs('b', 1_001)).toBe(0);
    expect(holds.holdMs('a', 1_000 + REFUSAL_MEMORY_MS)).toBe(0);
    // Forgotten: refused again later, it starts from one step.
    holds.refused('a', 10_000);
    expect(holds.holdMs('a', 10_001)).toBe(REFUSAL_HOLD_STEP_MS);
  });

  it('holds a step longer for each refusal in a row, up to the most, including refusals that came after a full hold', () => {
    const holds = new RefusalHolds();
    let now = 0;
    const seen: number[] = [];
    for (let i = 0; i < 14; i++) {
      holds.refused('a', now);
      const hold = holds.holdMs('a', now + 1);
      seen.push(hold);
      // A client that resends at once is refused again when its hold ends.
      now += 1 + hold + 5;
    }
    expect(seen).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1000, 1000, 1000, 1000]);
    expect(Math.max(...seen)).toBe(REFUSAL_HOLD_MAX_MS);
  });
});
