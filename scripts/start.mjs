#!/usr/bin/env node
// Entry of `npm start`, `npm run ops` and `npm run bench`: compiles the
// TypeScript sources when dist/ is missing or older than them, then runs the
// compiled entry point in this same process (so SIGTERM reaches it directly).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entries = {
  'all-in-one': 'dist/apps/all-in-one/src/main.js',
  api: 'dist/apps/api/src/main.js',
  worker: 'dist/apps/worker/src/main.js',
  ops: 'dist/apps/ops/src/main.js',
  bench: 'dist/bench/main.js',
  soak: 'dist/bench/soak.js',
};

const [target, ...rest] = process.argv.slice(2);
const entry = entries[target];
if (!entry && target !== 'build') {
  process.stderr.write(`usage: start.mjs build|${Object.keys(entries).join('|')} [args]\n`);
  process.exit(64);
}

const stamp = path.join(root, 'dist', '.build-stamp');
if (needsBuild(entry)) {
  process.stderr.write('building (tsc)…\n');
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) process.exit(result.status ?? 1);
  await import('node:fs').then((fs) => fs.writeFileSync(stamp, new Date().toISOString()));
}

if (!entry) process.exit(0);
process.argv = [process.argv[0], path.join(root, entry), ...rest];
await import(pathToFileURL(path.join(root, entry)).href);

function needsBuild(entry) {
  if (!existsSync(stamp) || (entry && !existsSync(path.join(root, entry)))) return true;
  const built = statSync(stamp).mtimeMs;
  const sources = ['apps', 'libs', 'projections', 'bench', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
  return sources.some((source) => newerThan(path.join(root, source), built));
}

function newerThan(file, time) {
  if (!existsSync(file)) return false;
  const stat = statSync(file);
  if (stat.isDirectory()) return readdirSync(file).some((name) => newerThan(path.join(file, name), time));
  // Only what tsc reads: benchmark results and other outputs beside the sources do not count.
  return (file.endsWith('.ts') || file.endsWith('.json')) && !file.includes(`${path.sep}results${path.sep}`) && stat.mtimeMs > time;
}
