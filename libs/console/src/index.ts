// The developer console: a static MapLibre page served at GET /console.
export * from './console.module.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { consoleContext } from './context.js';
