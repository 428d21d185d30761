// The developer console: a static MapLibre page served at GET /console.
export * from './console.module.js';
export { CONSOLE_CSP } from './console.controller.js';
