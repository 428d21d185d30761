import { describe, expect, it } from '@jest/globals';
import { buildRoadGraph, NO_ACCESS } from './road-graph.js';
import { closedEdges, weightedCopy } from './traffic-metrics.js';

describe('closures and weighted copies for customisation', () => {
  // One straight road of ~1.1 km with no point in its middle, and a parallel one 500 m north.
  const { graph } = buildRoadGraph([
    { type: 'way', id: 1, tags: { highway: 'primary' }, nodes: [1, 2], points: [[5.6, -0.2], [5.6, -0.19]] },
    { type: 'way', id: 2, tags: { highway: 'primary' }, nodes: [3, 4], points: [[5.6045, -0.2], [5.6045, -0.19]] },
  ]);

  it('closes a road whose segment crosses a circle with no vertex inside it, and only that road', () => {
    expect([...closedEdges(graph, [{ lat: 5.6002, lng: -0.195, radius_m: 40 }])]).toEqual([0]);
    expect([...closedEdges(graph, [{ lat: 5.601, lng: -0.195, radius_m: 40 }])]).toEqual([]);
    expect([...closedEdges(graph, [{ lat: 5.6, lng: -0.2003, radius_m: 40 }])]).toEqual([0]);
  });

  it('rounds weights times factors to integers and marks closed directions', () => {
    const weights = graph.weights[0];
    const copy = weightedCopy(weights, graph.edgeCount, (edge) => (edge === 0 ? Infinity : 1.5));
    expect(copy.weights[0]).toBe(NO_ACCESS);
    expect(copy.weights[2]).toBe(Math.round(weights[2] * 1.5));
    expect(copy.factors[2]).toBe(1.5);
  });
});
