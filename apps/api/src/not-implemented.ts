import type { FastifyInstance } from 'fastify';
import { failure } from '../../../libs/platform/src/index.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Endpoints of interface.md (and decisions.md's implied ones) that later
 * issues build. Until a context registers the real route, they answer
 * 501 NOT_IMPLEMENTED in the envelope, so a client can tell "not yet" from a
 * typo (404). A route is dropped from here when its context lands.
 */
const PLANNED: Array<[Method[], string, string]> = [
  [['GET'], '/v2/admin/traffic/accuracy', 'routing'],
  [['POST'], '/v2/route', 'routing'],
  [['GET'], '/v2/route/along', 'routing'],
  [['GET'], '/v2/route/traffic', 'routing'],
  [['GET', 'POST'], '/v2/route/incidents', 'routing'],
  [['POST'], '/v2/route/transit', 'transit'],
  [['GET'], '/v2/transit/departures', 'transit'],
  [['POST'], '/v2/navigate/route', 'routing'],
  [['POST'], '/v2/navigation/arrival', 'routing'],
  [['GET'], '/v2/route/static', 'routing'],
  [['GET'], '/v2/analytics/traffic-heatmap', 'routing'],
  [['GET'], '/v2/analytics/retail-density', 'addressing'],
  [['GET'], '/v2/weather/alerts', 'weather'],
  [['GET'], '/v2/precipitation-forecast', 'weather'],
  [['POST'], '/v2/language/translate', 'language'],
  [['POST'], '/v2/language/transcribe', 'language'],
  [['POST'], '/v2/collections/register', 'banking'],
  [['POST'], '/v2/collections/bulk-register', 'banking'],
  [['GET', 'POST'], '/v2/collections/locate', 'banking'],
  [['POST'], '/v2/analytics/portfolio-risk', 'banking'],
  [['GET', 'POST', 'DELETE'], '/v2/verify/schedule', 'banking'],
  [['POST'], '/v2/locator/share-token', 'locator'],
  [['POST'], '/v2/locator/redeem', 'locator'],
  [['GET'], '/v2/locator/viewers', 'locator'],
  [['GET'], '/v2/locator/watching', 'locator'],
  [['DELETE'], '/v2/locator/viewers/:pairingId', 'locator'],
  [['POST'], '/v2/locator/checkin', 'locator'],
  [['GET'], '/v2/locator/:targetId/location', 'locator'],
];

export function registerPlannedRoutes(fastify: FastifyInstance): void {
  for (const [methods, url, context] of PLANNED) {
    fastify.route({
      method: methods,
      url,
      handler: async (request, reply) =>
        reply.status(501).send(failure('NOT_IMPLEMENTED', `${request.method} ${url} is specified but not built yet (${context} context)`, { request_id: String(request.id) })),
    });
  }
}

/** Adds the planned routes to the generated OpenAPI document, marked as answering 501. */
export function describePlannedRoutes(document: { paths: Record<string, Record<string, unknown>> }): void {
  for (const [methods, url, context] of PLANNED) {
    const path = url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const parameters = [...url.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    document.paths[path] ??= {};
    for (const method of methods) {
      document.paths[path][method.toLowerCase()] = {
        tags: [context],
        summary: 'Specified in interface.md; not built yet',
        parameters,
        responses: { '501': { description: 'NOT_IMPLEMENTED in the envelope' } },
      };
    }
  }
}
