/**
 * A separate process for the embedded read store's crash and multi-process
 * tests, run with `node --import libs/platform/src/testing/register-ts.mjs`.
 *   write-forever DIR     applies d1, d2, … and prints each position once resolved
 *   race-even DIR N       prints `ready`, applies even positions 2..2N to one
 *                         document, then prints the accepted positions as JSON
 */
import { EmbeddedReadStore } from '../embedded-read-store.js';

const [mode, dir, count] = process.argv.slice(2);
const store = await EmbeddedReadStore.open(dir);
const indexes = [{ name: 'by_n', fields: ['n'] }];
if (mode === 'write-forever') {
  const durable = await store.collection('durable', indexes);
  for (let n = 1; ; n++) {
    await durable.apply(`d${n}`, BigInt(n), () => ({ id: `d${n}`, n }));
    process.stdout.write(`${n}\n`);
  }
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
