export * from './domain/place.js';
export * from './domain/search-index.js';
export * from './domain/admin-areas.js';
export * from './errors.js';
export * from './gazetteer.js';
export * from './places.module.js';
export * from './reference/reference-store.js';
export * from './importers/importers.js';
export { OsmFormatError } from './importers/osm-source.js';
