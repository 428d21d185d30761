import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';

// scripts/check-contracts.mjs (run by `npm test`) on a miniature of libs/: the `shop` context publishes one
// symbol of every allowed kind and an implementation as a type only; `billing` publishes four implementations
// on purpose. A kind rule that stops firing, or starts firing on a contract, fails here.
const repo = path.resolve(import.meta.dirname, '../..');
const root = 'test/architecture/fixtures/contracts';

describe('the contract check on deliberate violations', () => {
  let run: { status: number | null; stdout: string; stderr: string };

  beforeAll(() => {
    run = spawnSync(process.execPath, ['scripts/check-contracts.mjs', '--root', root, '--json'], { cwd: repo, encoding: 'utf8' });
  });

  it('fails, naming each implementation billing publishes and its kind', () => {
    expect(run.status).toBe(1);
    const offences = run.stderr.split('\n').filter((line) => /^[a-z-]+: /.test(line)).map((line) => line.replace(/ \(.*$/, ''));
    expect(offences.sort()).toEqual([
      'billing: InvoiceBook is an implementation class',
      'billing: InvoicePrinter is an implementation class',
      'billing: defaultPrinter is an implementation instance',
      'billing: printAll is an implementation function',
    ]);
  });

  it('passes every kind of the clean contract, the shared kernel unchecked', () => {
    expect(run.stderr).not.toMatch(/^(shop|platform):/m);
    const table = JSON.parse(run.stdout.split('\n')[0]) as Array<Record<string, string | number>>;
    expect(table.map((row) => row.context)).toEqual(['billing', 'shop']);
    expect(table.find((row) => row.context === 'shop')).toEqual({
      context: 'shop',
      total: 13,
      type: 3,
      constant: 2,
      function: 1,
      error: 1,
      enum: 1,
      port: 1,
      message: 1,
      module: 2,
      definition: 1,
    });
  });
});
