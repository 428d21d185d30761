import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';

// The rules of `npm run lint:deps`, run by the same CLI on a miniature of the
// repository where each `bad-*` file breaks one rule on purpose. A rule that
// stops firing (a regex that no longer matches, an exclude that swallows the
// edge) fails here instead of passing silently on the real tree.
const repo = path.resolve(import.meta.dirname, '../..');
const fixtures = 'test/architecture/fixtures';
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as { forbidden: Array<{ name: string }> };

/** rule → the edges (`from → to`, paths below the fixture root, npm modules by package name) it must report, and no others. */
const expected: Record<string, string[]> = {
  'domain-is-pure': [
    'libs/shop/src/carts/domain/bad-uses-nest.ts → @nestjs/common',
    ...['@eventstore/db-client', 'bullmq', 'fastify', 'ioredis', 'kafkajs', 'lmdb', 'mongodb', 'nodemailer'].map(
      (driver) => `libs/shop/src/domain/bad-uses-drivers.ts → ${driver}`,
    ),
    'libs/shop/src/domain/bad-uses-platform-internals.ts → libs/platform/src/commands/pipeline.ts',
    'libs/shop/src/domain/bad-uses-platform-internals.ts → libs/platform/src/index.ts',
  ],
  'domain-no-io-builtins': ['libs/shop/src/domain/bad-does-io.ts → fs', 'libs/shop/src/domain/bad-does-io.ts → http'],
  'domain-not-application': [
    'libs/shop/src/carts/domain/bad-uses-a-view.ts → libs/shop/src/carts/views/cart-view.ts',
    'libs/shop/src/domain/bad-uses-a-handler.ts → libs/shop/src/commands/place-order/place-order.handler.ts',
  ],
  'contexts-through-index': [
    'libs/shop/src/bad-reaches-into-billing.ts → libs/billing/src/domain/invoice.ts',
    'libs/shop/src/domain/bad-uses-platform-internals.ts → libs/platform/src/commands/pipeline.ts',
  ],
  'apps-and-projections-through-index': [
    'apps/api/src/bad-reaches-into-shop.ts → libs/shop/src/domain/order.ts',
    'projections/orders/bad-reaches-into-shop.ts → libs/shop/src/commands/place-order/place-order.handler.ts',
  ],
  'tests-through-index': ['test/bad-reaches-into-shop.e2e-spec.ts → libs/shop/src/carts/views/cart-view.ts'],
  'bench-through-index': ['bench/bad-reaches-into-shop.bench.ts → libs/shop/src/carts/views/cart-view.ts'],
  'slices-stand-alone': [
    'libs/shop/src/carts/commands/add-item/bad-reuses-a-sub-area-slice.ts → libs/shop/src/carts/queries/get-cart/get-cart.handler.ts',
    'libs/shop/src/queries/get-order/bad-reuses-a-slice.ts → libs/shop/src/commands/place-order/place-order.handler.ts',
  ],
  'platform-knows-no-context': ['libs/platform/src/bad-knows-a-context.ts → libs/shop/src/index.ts'],
  'reference-data-knows-no-context': ['libs/reference-data/src/bad-knows-a-context.ts → libs/shop/src/index.ts'],
  'testing-stays-in-tests': [
    'libs/platform/src/bad-ships-a-testing-helper.ts → libs/platform/src/testing/decider-spec.ts',
    'libs/shop/src/bad-uses-test-support.ts → test/support/seeded.ts',
  ],
  'no-circular': ['libs/shop/src/bad-cycle-a.ts → libs/shop/src/bad-cycle-b.ts'],
};

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

function shorten(file: string): string {
  const npm = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (npm) return npm[1];
  return file.startsWith(`${fixtures}/`) ? file.slice(fixtures.length + 1) : file;
}

function fixtureFiles(dir = path.join(repo, fixtures)): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? fixtureFiles(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.relative(path.join(repo, fixtures), path.join(dir, entry.name))] : [],
  );
}

describe('dependency-cruiser rules on deliberate violations', () => {
  let cruised: string[];
  let reported: Map<string, string[]>;

  beforeAll(() => {
    const run = spawnSync(
      process.execPath,
      ['node_modules/dependency-cruiser/bin/dependency-cruise.mjs', '--config', '.dependency-cruiser.cjs', '--output-type', 'json', fixtures],
      { cwd: repo, env: { ...process.env, DEPCRUISE_ROOT: fixtures }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    // Exit status = number of errors; anything unparseable means the cruise itself failed.
    if (!run.stdout.trim().startsWith('{')) throw new Error(`dependency-cruiser did not run: ${run.stderr || run.error?.message}`);
    const result = JSON.parse(run.stdout) as { modules: Array<{ source: string }>; summary: { violations: Violation[] } };
    cruised = result.modules.map((module) => shorten(module.source));
    reported = new Map();
    for (const violation of result.summary.violations) {
      const edges = reported.get(violation.rule.name) ?? [];
      edges.push(`${shorten(violation.from)} → ${shorten(violation.to)}`);
      reported.set(violation.rule.name, edges);
    }
  });

  it('has a deliberate violation for every rule of the config', () => {
    expect(config.forbidden.map((rule) => rule.name).sort()).toEqual(Object.keys(expected).sort());
  });

  it('cruises every fixture file, so the clean ones are checked too', () => {
    const files = fixtureFiles();
    expect(files.length).toBeGreaterThan(30);
    expect(cruised).toEqual(expect.arrayContaining(files));
  });

  it.each(Object.entries(expected))('%s fires on its fixtures and nowhere else', (rule, edges) => {
    expect([...(reported.get(rule) ?? [])].sort()).toEqual([...edges].sort());
  });

  it('reports nothing from a clean file', () => {
    const offenders = [...reported.values()].flat().filter((edge) => !edge.split(' → ').some((end) => path.basename(end).startsWith('bad-')));
    expect(offenders).toEqual([]);
  });
});
