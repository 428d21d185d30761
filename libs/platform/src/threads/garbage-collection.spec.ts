import { tuneGarbageCollection } from './garbage-collection.js';

describe('tuneGarbageCollection', () => {
  it('leaves V8 alone at 0, and when node was given the flag itself', () => {
    expect(tuneGarbageCollection(0)).toBe(false);
    expect(tuneGarbageCollection(100, ['--heap-growing-percent=50'])).toBe(false);
    expect(tuneGarbageCollection(100, ['--heap_growing_percent', '50'])).toBe(false);
  });

  // Its effect on the api (full collections every ~0.8 s against every 4–6 s under the service-area attack) is measured by
  // `npm run bench -- fairness` with FAIRNESS_SERVICE_NODE_OPTIONS=--trace-gc (docs/adr/0044), not timed here.
});
