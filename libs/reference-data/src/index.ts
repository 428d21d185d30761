// Readers of third-party reference formats, shared by every context that keeps reference data (docs/adr/0011):
// OSM XML and PBF, GTFS archives, plain or gzipped source files. They read; what a context keeps of it is its importer's business.
export { readOsm, osmReaderFor } from './osm/read-osm.js';
export { readOsmXml } from './osm/osm-xml.js';
export { readOsmPbf } from './osm/osm-pbf.js';
export { OSM_ATTRIBUTION, OsmFormatError, type OsmMember, type OsmReader, type OsmTags, type OsmVisitor, type ReadProgress } from './osm/osm-source.js';
export { GtfsArchive, GtfsArchiveError, type CsvRow } from './gtfs/gtfs-archive.js';
export { headOf, openSource, readSource, sourceFile, type SourceFile } from './source-file.js';
