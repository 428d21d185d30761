import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';

/**
 * Nest's `@RouteConfig` replaces a handler's Fastify route config, so of two
 * platform decorators that each declare a part of it (`@Expensive`,
 * `@BodyBudget`, `@RawJsonBody`) only the last applied would count. This one
 * adds its members to what the handler already declares.
 */
export function mergeRouteConfig(config: Record<string, unknown>): MethodDecorator {
  return (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const declared = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as Record<string, unknown> | undefined) ?? {};
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...declared, ...config }, handler);
    return descriptor;
  };
}
