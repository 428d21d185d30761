/**
 * A child process for the dataset crash tests, killed with SIGKILL by
 * file-dataset-store.int-spec.ts at a chosen point of an import. Line
 * protocol on stdout: `writing` once records are in the staging folder,
 * `durable` once the new version is renamed into place but before the
 * pointer switch; the process then freezes (the event loop blocked, as a hung
 * process would be) until it is killed. `committed` if it ever gets that far.
 *
 *   import-child.ts <root> <dataset> <records> writing|durable
 */
import { FileDatasetStore } from '../file-dataset-store.js';

const [root, dataset, count, stopAt] = process.argv.slice(2);

function freeze(line: string): void {
  // stdout to a pipe is synchronous on Linux: the parent sees the line before the freeze.
  process.stdout.write(`${line}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

const writer = await new FileDatasetStore(root).begin(dataset);
for (let n = 0; n < Number(count); n++) {
  await writer.write({ n, name: `record ${n}` });
  if (stopAt === 'writing' && n === Math.floor(Number(count) / 2)) {
    // Half the records are on disk (a full write buffer went out): die in the middle.
    await writer.flushIfFull();
    freeze('writing');
  }
}
await writer.commit({ sources: ['child'], attribution: [], stats: {} }, async () => {
  if (stopAt === 'durable') freeze('durable');
});
process.stdout.write('committed\n');
