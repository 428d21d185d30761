import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { NoRoadNearbyError, NoRouteError, RoutingEngineUnavailableError } from '../domain/errors.js';
import { buildRoute } from '../routes/route-builder.js';
import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { GraphHopperEngine } from './graphhopper-engine.js';

/** A real GraphHopper 11 answer (the starter's Accra roads, two legs), recorded from the CI server's configuration. */
const recorded = readFileSync(path.join(import.meta.dirname, '../__fixtures__/graphhopper-route.json'), 'utf8');
const points = [{ lat: 5.556, lng: -0.233 }, { lat: 5.58, lng: -0.21 }, { lat: 5.57, lng: -0.18 }];

function answering(status: number, body: string): typeof fetch {
  return (async () => new Response(body, { status, headers: { 'content-type': 'application/json' } })) as typeof fetch;
}

interface Recorded {
  method: string;
  path: string;
  contentType: string;
  body: Record<string, unknown> & { custom_model?: { priority: Array<{ if: string; multiply_by: string }>; areas?: { features: Array<{ id: string; geometry: { type: string; coordinates: number[][][] } }> } } };
}

/** A stub GraphHopper on loopback: records each request, answers the recorded route. */
async function stubServer<T>(use: (url: string, seen: Recorded[]) => Promise<T>): Promise<T> {
  const seen: Recorded[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', path: request.url ?? '', contentType: request.headers['content-type'] ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') });
      response.writeHead(200, { 'content-type': 'application/json' }).end(recorded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('GraphHopper adapter', () => {
  it('asks for the mode’s profile with path details, and turns the answer into legs and spans our steps are built over', async () => {
    const { result, seen } = await stubServer(async (url, seen) => ({ result: await new GraphHopperEngine(url).route({ points, mode: 'motor_scooter', alternatives: 0 }), seen }));
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/route', contentType: 'application/json' });
    expect(seen[0].body).toMatchObject({ profile: 'scooter', instructions: false, points: [[-0.233, 5.556], [-0.21, 5.58], [-0.18, 5.57]] });
    expect(seen[0].body.details).toEqual(expect.arrayContaining(['street_name', 'road_class', 'surface', 'roundabout', 'time']));
    // No constraint: speed mode (the prepared hierarchy), no custom model.
    expect(seen[0].body).not.toHaveProperty('custom_model');
    expect(seen[0].body).not.toHaveProperty(['ch.disable']);
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

  it('sends the query’s constraints as a custom model: blocked circles as areas at priority 0, fords at 0, unpaved roads dearer', async () => {
    const blocked = { lat: 5.56, lng: -0.2, radius_m: 50 };
    const { result, seen } = await stubServer(async (url, seen) => ({
      result: await new GraphHopperEngine(url).route({ points: points.slice(0, 2), mode: 'driving', alternatives: 1, constraints: { avoidAreas: [blocked, { lat: 5.57, lng: -0.19, radius_m: 20 }], avoidFloodCrossings: true, avoidUnpaved: true } }),
      seen,
    }));
    const body = seen[0].body;
    // A custom model needs GraphHopper's flexible mode; alternatives still asked for.
    expect(body).toMatchObject({ 'ch.disable': true, algorithm: 'alternative_route', 'alternative_route.max_paths': 2 });
    const model = body.custom_model!;
    expect(model.priority).toEqual(expect.arrayContaining([
      { if: 'in_blocked_0', multiply_by: '0' },
      { if: 'in_blocked_1', multiply_by: '0' },
      { if: 'road_environment == FORD', multiply_by: '0' },
    ]));
    const unpaved = model.priority.find((rule) => rule.if.includes('surface == DIRT'));
    expect(Number(unpaved?.multiply_by)).toBeCloseTo(1 / 3, 6);
    expect(unpaved?.if).toContain('road_class == TRACK');
    // Each blocked circle is a closed polygon around it whose every edge stays outside the circle (circumscribed).
    const [first, second] = model.areas!.features;
    expect([first.id, second.id]).toEqual(['blocked_0', 'blocked_1']);
    const ring = first.geometry.coordinates[0];
    expect(first.geometry.type).toBe('Polygon');
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    for (let k = 1; k < ring.length; k++) {
      const mid = [(ring[k - 1][0] + ring[k][0]) / 2, (ring[k - 1][1] + ring[k][1]) / 2];
      expect(greatCircleM(blocked.lat, blocked.lng, mid[1], mid[0])).toBeGreaterThanOrEqual(blocked.radius_m * 0.999);
      expect(greatCircleM(blocked.lat, blocked.lng, ring[k][1], ring[k][0])).toBeLessThan(blocked.radius_m * 1.05);
    }
    // Honoured, so no warning for the circles or unpaved roads; flood-prone roads it cannot see.
    expect(result.warnings).toEqual(['graphhopper: flood-prone roads are not known to this engine; only fords are avoided']);
  });

  it('says what it cannot honour in warnings instead of failing', async () => {
    const { result, seen } = await stubServer(async (url, seen) => ({ result: await new GraphHopperEngine(url).route({ points, mode: 'driving', alternatives: 0, constraints: { trafficFactor: () => 2 } }), seen }));
    expect(result.warnings).toEqual(['graphhopper: learned traffic factors are not applied by this engine']);
    // Traffic alone makes no custom model: the query stays in speed mode.
    expect(seen[0].body).not.toHaveProperty('custom_model');
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
