import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { NoRoadNearbyError, NoRouteError, RoutingEngineUnavailableError } from '../domain/errors.js';
import { buildRoute } from '../routes/route-builder.js';
import { GraphHopperEngine } from './graphhopper-engine.js';

/** A real GraphHopper 11 answer (the starter's Accra roads, two legs), recorded from the CI server's configuration. */
const recorded = readFileSync(path.join(import.meta.dirname, '../__fixtures__/graphhopper-route.json'), 'utf8');
const points = [{ lat: 5.556, lng: -0.233 }, { lat: 5.58, lng: -0.21 }, { lat: 5.57, lng: -0.18 }];

function answering(status: number, body: string, seen: URL[] = []): typeof fetch {
  return (async (input: string | URL | Request) => {
    seen.push(new URL(String(input)));
    return new Response(body, { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
}

describe('GraphHopper adapter', () => {
  it('asks for the mode’s profile with path details, and turns the answer into legs and spans our steps are built over', async () => {
    const seen: URL[] = [];
    const engine = new GraphHopperEngine('http://graphhopper.test:8989', answering(200, recorded, seen));
    const result = await engine.route({ points, mode: 'motor_scooter', alternatives: 0 });
    expect(seen[0].pathname).toBe('/route');
    expect(seen[0].searchParams.get('profile')).toBe('scooter');
    expect(seen[0].searchParams.getAll('point')).toEqual(['5.556,-0.233', '5.58,-0.21', '5.57,-0.18']);
    expect(seen[0].searchParams.getAll('details')).toEqual(expect.arrayContaining(['street_name', 'road_class', 'surface', 'roundabout', 'time']));
    const path = result.paths[0];
    expect(path.legs).toHaveLength(2);
    expect(path.distance_m).toBeCloseTo(9368.4, 0);
    const spanDistance = path.legs.flatMap((leg) => leg.spans).reduce((sum, span) => sum + span.distance_m, 0);
    expect(Math.abs(spanDistance - path.distance_m) / path.distance_m).toBeLessThan(0.01);
    const spanTime = path.legs.flatMap((leg) => leg.spans).reduce((sum, span) => sum + span.duration_s, 0);
    expect(Math.abs(spanTime - path.duration_s) / path.duration_s).toBeLessThan(0.01);
    for (const leg of path.legs) {
      expect(leg.spans[0].from).toBe(0);
      expect(leg.spans[leg.spans.length - 1].to).toBe(leg.coordinates.length - 1);
    }
    expect(path.legs.flatMap((leg) => leg.spans).some((span) => span.road.name === 'Ring Road Central')).toBe(true);
    expect(path.legs.flatMap((leg) => leg.spans).some((span) => span.road.roundabout)).toBe(true);
    const route = buildRoute(path, { mode: 'motor_scooter', narration: 'street', landmarks: null });
    expect(route.steps.map((step) => step.turn_class)).toContain('waypoint');
    expect(route.steps[route.steps.length - 1].turn_class).toBe('arrive');
  });

  it('says what it cannot honour in warnings instead of failing', async () => {
    const engine = new GraphHopperEngine('http://graphhopper.test:8989', answering(200, recorded));
    const result = await engine.route({ points, mode: 'driving', alternatives: 0, constraints: { trafficFactor: () => 2, avoidAreas: [{ lat: 5.56, lng: -0.2, radius_m: 50 }] } });
    expect(result.warnings).toEqual(['graphhopper: learned traffic factors are not applied by this engine', 'graphhopper: blocked roads are not avoided by this engine']);
  });

  it('maps GraphHopper’s errors to ours: a point off the network, no connection, a server that is down', async () => {
    const notFound = JSON.stringify({ message: 'Cannot find point 2: 5.3,-0.2', hints: [{ details: 'com.graphhopper.util.exceptions.PointNotFoundException', point_index: 2 }] });
    await expect(new GraphHopperEngine('http://gh', answering(400, notFound)).route({ points, mode: 'driving', alternatives: 0 })).rejects.toThrow(expect.objectContaining({ code: 'NO_ROAD_NEARBY', field: 'to' }));
    const outOfBounds = JSON.stringify({ message: 'Point 0 is out of bounds: 5.3,-0.2', hints: [{ details: 'com.graphhopper.util.exceptions.PointOutOfBoundsException', point_index: 0 }] });
    await expect(new GraphHopperEngine('http://gh', answering(400, outOfBounds)).route({ points, mode: 'driving', alternatives: 0 })).rejects.toThrow(NoRoadNearbyError);
    const noConnection = JSON.stringify({ message: 'Connection between locations not found', hints: [{ details: 'com.graphhopper.util.exceptions.ConnectionNotFoundException' }] });
    await expect(new GraphHopperEngine('http://gh', answering(400, noConnection)).route({ points, mode: 'driving', alternatives: 0 })).rejects.toThrow(NoRouteError);
    await expect(new GraphHopperEngine('http://gh', answering(500, 'oops')).route({ points, mode: 'driving', alternatives: 0 })).rejects.toThrow(RoutingEngineUnavailableError);
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    await expect(new GraphHopperEngine('http://gh', down).route({ points, mode: 'driving', alternatives: 0 })).rejects.toThrow(RoutingEngineUnavailableError);
  });
});
