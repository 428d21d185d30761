/**
 * A child process for the access journal's crash test (run through
 * `node --import libs/platform/src/testing/register-ts.mjs`). It records
 * `stored` entries and waits until the event store has them, then makes the
 * store's appends hang (as a process killed between its journal commit and its
 * store append would leave things) and records `journaled` more, in segments of
 * `segmentBytes`. It prints
 *   recorded <n>   every `record` so far has resolved (n of them)
 * and the test kills it with SIGKILL.
 */
import { EmbeddedEventStore, EventRegistry } from '../../../../platform/src/index.js';
import { auditEventTypes } from '../../event-types.js';
import { JournaledAccessRecorder } from '../../public/journaled-access-recorder.js';
import { accessEntry } from './access-entry.js';

const [storeDir, journalDir, stored, journaled, segmentBytes] = process.argv.slice(2);

const events = await EmbeddedEventStore.open(storeDir);
const recorder = await JournaledAccessRecorder.open(events, new EventRegistry().register(...auditEventTypes), journalDir, () => undefined, { segmentBytes: Number(segmentBytes) });
const entry = (index: number) => accessEntry(index % 3 === 0 ? null : 'acct_1', `r${index}`);

await Promise.all(Array.from({ length: Number(stored) }, (_, index) => recorder.record(entry(index))));
await recorder.applied();
events.append = () => new Promise(() => undefined);
await Promise.all(Array.from({ length: Number(journaled) }, (_, index) => recorder.record(entry(Number(stored) + index))));
process.stdout.write(`recorded ${Number(stored) + Number(journaled)}\n`);
setInterval(() => undefined, 60_000);
