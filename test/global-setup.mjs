// Builds dist/ once before any test runs: the e2e tests that start the real
// entry points (`scripts/start.mjs`) must not race to compile it in parallel.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// TEST_SKIP_BUILD=1 skips it for unit and integration runs that start no entry point.
export default function globalSetup() {
  if (process.env.TEST_SKIP_BUILD === '1') return;
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const result = spawnSync(process.execPath, ['scripts/start.mjs', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('build failed: see the tsc output above');
}
