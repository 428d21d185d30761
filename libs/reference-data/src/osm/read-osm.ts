import path from 'node:path';
import { headOf, sourceFile } from '../source-file.js';
import { readOsmPbf } from './osm-pbf.js';
import { OsmFormatError, type OsmReader, type OsmVisitor, type ReadProgress } from './osm-source.js';
import { readOsmXml } from './osm-xml.js';

/**
 * An OSM file (XML, gzipped XML or PBF) object by object, as every importer
 * and the starter build read it. A second pass (way positions) is a second
 * call: the format is sniffed again, which reads 64 bytes.
 */
export async function readOsm(file: string, visitor: OsmVisitor, progress?: ReadProgress): Promise<void> {
  const read = await osmReaderFor(file);
  await read(file, visitor, progress);
}

/**
 * XML starts with `<` (after an optional byte-order mark and white space);
 * anything else is taken for PBF. Gzipped XML is read as it is; a gzipped PBF
 * is refused (its blobs are compressed already), and so are bzip2 and zip.
 */
export async function osmReaderFor(file: string): Promise<OsmReader> {
  if (/\.(bz2|zip)$/i.test(file)) throw new OsmFormatError('bzip2 or zip compressed OSM is not read directly: decompress it first (gzip is read), or use the .osm.pbf');
  const source = await sourceFile(file);
  const head = (await headOf(source, 64)).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('<')) return readOsmXml;
  if (source.gzip) throw new OsmFormatError(`${path.basename(file)} is gzipped but not OSM XML: a .osm.pbf is read uncompressed`);
  return readOsmPbf;
}
