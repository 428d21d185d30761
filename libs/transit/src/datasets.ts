import path from 'node:path';
import type { DatasetCliOptions, DatasetDeclaration, DatasetStore } from '../../platform/src/index.js';
import { importGtfs, TRANSIT_DATASET_GROUP } from './public/import-gtfs.js';
import { GtfsImportError, type GtfsImportReport } from './public/import-report.js';
import { TransitFeeds } from './public/transit-feeds.js';

/** GTFS feeds (docs/adr/0019), one dataset per city under `transit/`, compiled for RAPTOR by TransitFeeds. */
export const transitDatasets: readonly DatasetDeclaration[] = [
  {
    dataset: `${TRANSIT_DATASET_GROUP}/*`,
    import: (store, [file], options) => importGtfs(store, file, options),
    cli: { command: 'import:gtfs', usage: 'FILE.zip [--dataset NAME]   (a GTFS feed → transit/NAME, default transit/gtfs)', run: importGtfsReporting },
    starter: { kind: 'transit', servedBy: TransitFeeds },
  },
];

/** The operator sees the feed's report (problems, counts, examples) whether the import succeeds or is refused. */
async function importGtfsReporting(store: DatasetStore, [file]: string[], options: DatasetCliOptions) {
  const printReport = (report: GtfsImportReport) => {
    const lines = report.summary();
    options.print(lines.length === 0 ? 'import:gtfs: no problem found in the feed' : `import:gtfs: ${lines.length} kind(s) of problem in the feed:\n${lines.map((line) => `  ${line}`).join('\n')}`);
  };
  try {
    const result = await importGtfs(store, file, { dataset: options.dataset, onProgress: options.onProgress });
    printReport(result.report);
    options.print(`  full report: ${path.join(result.version.directory, 'import-report.json')}`);
    return result;
  } catch (error) {
    if (error instanceof GtfsImportError) printReport(error.report);
    throw error;
  }
}
