/**
 * A separate process for the embedded read store's crash and multi-process
 * tests, run with `node --import libs/platform/src/testing/register-ts.mjs`.
 *   write-forever DIR     applies d1, d2, … and prints each position once resolved
 *   race-even DIR N       prints `ready`, applies even positions 2..2N to one
 *                         document, then prints the accepted positions as JSON
 *   shapes DIR N          prints `ready`, applies N documents of N shapes (field
 *                         names `c<k>_…`, one nested object each) to `shapes`,
 *                         then prints `done`
 */
import { EmbeddedReadStore } from '../embedded-read-store.js';
import { shapeDoc } from './shape-doc.js';

const [mode, dir, count] = process.argv.slice(2);
const store = await EmbeddedReadStore.open(dir);
const indexes = [{ name: 'by_n', fields: ['n'] }];
if (mode === 'write-forever') {
  const durable = await store.collection('durable', indexes);
  for (let n = 1; ; n++) {
    await durable.apply(`d${n}`, BigInt(n), () => ({ id: `d${n}`, n }));
    process.stdout.write(`${n}\n`);
  }
} else if (mode === 'shapes') {
  const shapes = await store.collection('shapes', indexes);
  process.stdout.write('ready\n');
  for (let k = 0; k < Number(count); k++) await shapes.apply(`c${k}`, BigInt(2 * k + 2), () => shapeDoc('c', k));
  process.stdout.write('done\n');
  await store.close();
} else {
  const race = await store.collection<{ id: string; applied: number[] }>('race', indexes);
  process.stdout.write('ready\n');
  const accepted: number[] = [];
  for (let position = 2; position <= 2 * Number(count); position += 2) {
    if (await race.apply('x', BigInt(position), (current) => ({ id: 'x', applied: [...(current?.applied ?? []), position] }))) accepted.push(position);
  }
  process.stdout.write(`${JSON.stringify(accepted)}\n`);
  await store.close();
}
