import { NO_ACCESS, type RoadGraph } from './road-graph.js';

/**
 * Islands of the road network, as GraphHopper's `prepare.min_network_size`
 * removes them: OSM extracts are full of ways that touch nothing (a clipped
 * road, a driveway drawn apart), and a point snapped onto one can reach
 * nothing. Per mode, edges outside every strongly connected component of at
 * least `minNodes` nodes (never fewer than the largest has) are closed in
 * both directions, so snapping skips them. Returns how many edges it closed.
 */
export function closeIslands(graph: RoadGraph, weights: Int32Array, minNodes = 50): number {
  const n = graph.nodeCount;
  const component = stronglyConnected(graph, weights);
  const sizes = new Map<number, number>();
  for (let v = 0; v < n; v++) sizes.set(component[v], (sizes.get(component[v]) ?? 0) + 1);
  const threshold = Math.min(minNodes, Math.max(0, ...sizes.values()));
  let closed = 0;
  for (let e = 0; e < graph.edgeCount; e++) {
    if (weights[2 * e] === NO_ACCESS && weights[2 * e + 1] === NO_ACCESS) continue;
    const a = component[graph.edgeFrom[e]];
    const b = component[graph.edgeTo[e]];
    if (a === b && (sizes.get(a) ?? 0) >= threshold) continue;
    weights[2 * e] = NO_ACCESS;
    weights[2 * e + 1] = NO_ACCESS;
    closed++;
  }
  return closed;
}

/** Tarjan's algorithm, iterative (a country's graph is far too deep for recursion): component id per node. */
function stronglyConnected(graph: RoadGraph, weights: Int32Array): Int32Array {
  const n = graph.nodeCount;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const component = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  const callNode: number[] = [];
  const callEdge: number[] = [];
  let counter = 0;
  let components = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    callNode.push(root);
    callEdge.push(graph.incidentOffset[root]);
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (callNode.length > 0) {
      const v = callNode[callNode.length - 1];
      const k = callEdge[callEdge.length - 1];
      if (k < graph.incidentOffset[v + 1]) {
        callEdge[callEdge.length - 1] = k + 1;
        const edge = graph.incidentEdges[k];
        const dir = graph.edgeFrom[edge] === v ? 0 : 1;
        if (weights[2 * edge + dir] === NO_ACCESS) continue;
        const w = graph.head(edge, dir);
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          callNode.push(w);
          callEdge.push(graph.incidentOffset[w]);
        } else if (onStack[w] && index[w] < low[v]) low[v] = index[w];
        continue;
      }
      callNode.pop();
      callEdge.pop();
      if (callNode.length > 0) {
        const parent = callNode[callNode.length - 1];
        if (low[v] < low[parent]) low[parent] = low[v];
      }
      if (low[v] === index[v]) {
        for (;;) {
          const w = stack.pop()!;
          onStack[w] = 0;
          component[w] = components;
          if (w === v) break;
        }
        components++;
      }
    }
  }
  return component;
}
