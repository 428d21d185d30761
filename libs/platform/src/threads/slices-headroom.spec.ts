import { keepSliceHeadroom, LoopSlicer, yieldToLoop, yieldWithHeadroom } from './slices.js';

describe('yieldWithHeadroom: request work leaves the loop headroom while others use it (ADR 0052)', () => {
  afterEach(() => keepSliceHeadroom(undefined));

  it('yields one turn of the loop while no headroom is kept or none is needed', async () => {
    let held = false;
    const ticks: Array<() => void> = [];
    keepSliceHeadroom({ held: () => held, nextTick: () => new Promise((resolve) => ticks.push(resolve)) });
    let resumed = false;
    void yieldWithHeadroom().then(() => (resumed = true));
    await yieldToLoop();
    await yieldToLoop();
    expect(resumed).toBe(true);
    expect(ticks).toHaveLength(0);
  });

  it.each([
    ['a slicer with the headroom option', () => new LoopSlicer(0, { headroom: true })],
    ["a request's slicer (forRequest)", () => LoopSlicer.forRequest()],
  ])('%s waits for the next tick while the loop is held, however many turns pass', async (_, make) => {
    const ticks: Array<() => void> = [];
    keepSliceHeadroom({ held: () => true, nextTick: () => new Promise((resolve) => ticks.push(resolve)) });
    let resumed = false;
    const slicer = make();
    void slicer.yield().then(() => (resumed = true));
    for (let i = 0; i < 5; i++) await yieldToLoop();
    expect(resumed).toBe(false);
    expect(ticks).toHaveLength(1);
    ticks[0]();
    await yieldToLoop();
    expect(resumed).toBe(true);
  });

  it('leaves background slicers (no headroom option) on the next turn even while held', async () => {
    const ticks: Array<() => void> = [];
    keepSliceHeadroom({ held: () => true, nextTick: () => new Promise((resolve) => ticks.push(resolve)) });
    let resumed = false;
    void new LoopSlicer(0).yield().then(() => (resumed = true));
    await yieldToLoop();
    await yieldToLoop();
    expect(resumed).toBe(true);
    expect(ticks).toHaveLength(0);
  });
});
