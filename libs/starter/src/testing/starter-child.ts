/**
 * A child process for the first-start crash test, killed with SIGKILL by
 * first-start.int-spec.ts while it writes the landmarks (the boundaries and
 * the gazetteer are live by then). It prints `writing` and freezes (the event
 * loop blocked, as a hung process would be) until it is killed.
 *
 *   starter-child.ts <reference-root> <pack-dir>
 */
import { FileDatasetStore } from '../../../platform/src/index.js';
import { importStarterData } from '../first-start.js';
import { declaredFor } from './declared-datasets.js';

const [root, packDir] = process.argv.slice(2);

const store = new FileDatasetStore(root);
await importStarterData(store, packDir, {
  ...declaredFor(store),
  log: { info: () => undefined },
  onProgress: (kind, progress) => {
    if (kind !== 'landmarks' || progress.records === 0) return;
    // stdout to a pipe is synchronous on Linux: the parent sees the line before the freeze.
    process.stdout.write('writing\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  },
});
process.stdout.write('committed\n');
