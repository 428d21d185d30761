import type { DatasetDeclaration } from '../../platform/src/index.js';
import { ATTRIBUTION } from './domain/place.js';
import { Gazetteer } from './public/gazetteer.js';
import { importBoundaries, importGeoNames, importOsm } from './public/importers.js';

const fromOsm = (attribution: readonly string[]) => attribution.includes(ATTRIBUTION.osm);

/**
 * The reference data places keeps (docs/adr/0011): place sets side by side
 * under `places/` (GeoNames, OpenStreetMap POIs, which are also the
 * landmarks), and the admin boundaries that give every place its region and
 * district. The gazetteer serves them all.
 */
export const placesDatasets: readonly DatasetDeclaration[] = [
  {
    dataset: 'places/*',
    import: (store, [file], options) => importGeoNames(store, file, options),
    cli: { command: 'import:geonames', usage: 'FILE [--dataset NAME]   (GeoNames dump, e.g. GH.txt)' },
    starter: { kind: 'places', claims: (version) => !fromOsm(version.manifest.attribution), servedBy: Gazetteer },
  },
  {
    dataset: 'places/*',
    import: (store, [file], options) => importOsm(store, file, options),
    cli: { command: 'import:osm', usage: 'FILE [--dataset NAME]   (.osm XML or .osm.pbf; POIs)' },
    // A place set counts as the landmarks when it came from OpenStreetMap (its manifest carries the OSM attribution).
    starter: { kind: 'landmarks', claims: (version) => fromOsm(version.manifest.attribution), servedBy: Gazetteer },
  },
  {
    dataset: 'boundaries',
    import: (store, files, options) => importBoundaries(store, files, options),
    cli: { command: 'import:boundaries', usage: 'FILE [FILE …]   (GeoJSON admin boundaries, level 1 and 2)', files: 'many' },
    starter: {
      kind: 'boundaries',
      // Never a new version of a place set the starter did not import: no reannotation.
      import: (store, files, options) => importBoundaries(store, files, { ...options, reannotate: false }),
      servedBy: Gazetteer,
    },
  },
];
