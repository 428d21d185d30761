/**
 * A child process for the dataset crash tests, killed with SIGKILL by
 * reference-store.int-spec.ts at a chosen point of an import. Line protocol
 * on stdout: `writing` once records are in the staging folder, `durable` once
 * the new version is renamed into place but before the pointer switch; the
 * process then freezes (the event loop blocked, as a hung process would be)
 * until it is killed. `committed` if it ever gets that far.
 *
 *   import-child.ts <reference-root> <geonames-file> writing|durable
 */
import { importGeoNames } from '../../importers/importers.js';
import { ReferenceStore } from '../reference-store.js';

const [root, file, stopAt] = process.argv.slice(2);

function freeze(line: string): void {
  // stdout to a pipe is synchronous on Linux: the parent sees the line before the freeze.
  process.stdout.write(`${line}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

await importGeoNames(new ReferenceStore(root), file, {
  onProgress: (progress) => {
    if (stopAt === 'writing' && progress.records > 0) freeze('writing');
  },
  beforeSwitch: async () => {
    if (stopAt === 'durable') freeze('durable');
  },
});
process.stdout.write('committed\n');
