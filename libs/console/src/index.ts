// The developer console: a static MapLibre page served at GET /console.
export * from './console.module.js';
export { CONSOLE_CSP } from './console.controller.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { consoleContext } from './context.js';
