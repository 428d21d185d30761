#!/usr/bin/env node
// A clean first install (issue 50, item 3): `npm ci` on the declared Node must
// print no engine warning and no install-script warning. `.ci/run` tees its
// `npm ci` into a log and runs this on it; a test (test/install-warnings.spec.ts)
// runs the lockfile half in `npm test`.
//
//   node scripts/check-install-warnings.mjs [NPM_CI_LOG]
//
// With a log: every `EBADENGINE` and `install-scripts` line of it is a failure.
// Always, from the lockfile (what those warnings come from): every package's
// `engines.node` must admit the oldest Node package.json declares, every
// package with an install script must be named in package.json's
// `allowScripts` (npm 11 runs no dependency's install script it does not name
// there, and warns about each one it skipped), and no `allowScripts` entry may
// name a package the lock has no install script for. Exit 0 when clean, 1 with
// the findings on stderr.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const WARNING = /\bEBADENGINE\b|\binstall-scripts\b/;

/** The lines of an `npm ci` log that are engine or install-script warnings. */
export function installWarnings(log) {
  return log.split(/\r?\n/).filter((line) => WARNING.test(line));
}

/** The package name of a lockfile path (`node_modules/a/node_modules/@b/c` → `@b/c`). */
function packageName(where) {
  const at = where.lastIndexOf('node_modules/');
  return where.slice(at + 'node_modules/'.length);
}

/** The name in an `allowScripts` key (`lmdb`, `lmdb@3.5.6`, `@swc/core@1.16`). */
function allowedName(key) {
  const at = key.indexOf('@', 1);
  return at < 0 ? key : key.slice(0, at);
}

/** Findings about install scripts: packages with one that `allowScripts` does not decide, and stale entries. */
export function undecidedInstallScripts(manifest, lock) {
  const decided = new Set(Object.keys(manifest.allowScripts ?? {}).map(allowedName));
  const withScripts = new Set(
    Object.entries(lock.packages ?? {})
      .filter(([where, entry]) => where !== '' && entry.hasInstallScript && !entry.link)
      .map(([where]) => packageName(where)),
  );
  const findings = [];
  for (const name of [...withScripts].sort()) if (!decided.has(name)) findings.push(`${name} has an install script that package.json's allowScripts does not decide (allow or deny it, and say why in README.md, "Development")`);
  for (const name of [...decided].sort()) if (!withScripts.has(name)) findings.push(`allowScripts names ${name}, which has no install script in package-lock.json: remove the entry`);
  return findings;
}

/** `20.19` → [20, 19, 0]; a missing or wildcard part is undefined. Throws on anything else. */
function partial(text) {
  const parts = text.replace(/^v/, '').split('.');
  if (parts.length > 3 || parts.some((part) => !/^(\d+|x|X|\*)$/.test(part))) throw new Error(`not a version: ${text}`);
  const numbers = parts.map((part) => (/^\d+$/.test(part) ? Number(part) : undefined));
  const wild = numbers.indexOf(undefined);
  return wild < 0 ? numbers : numbers.slice(0, wild);
}

const compare = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
const full = (parts) => [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
/** The first version above every version a partial names (`20` → 21.0.0, `20.19` → 20.20.0). */
const above = (parts) => (parts.length === 0 ? [Infinity, 0, 0] : full([...parts.slice(0, -1), parts[parts.length - 1] + 1]));

/** Whether one comparator (`>=20.19`, `^18.18`, `20`, `10.x`, `*`) admits `version` ([major, minor, patch]). */
function admits(comparator, version) {
  const [, op, text] = /^(>=|<=|>|<|=|\^|~)?\s*(.*)$/.exec(comparator);
  const parts = text === '' ? [] : partial(text);
  const low = full(parts);
  switch (op ?? '=') {
    case '>=':
      return compare(version, low) >= 0;
    case '>':
      return compare(version, parts.length < 3 ? above(parts) : low) >= (parts.length < 3 ? 0 : 1);
    case '<':
      return compare(version, low) < 0;
    case '<=':
      return compare(version, above(parts)) < 0;
    case '=':
      return compare(version, low) >= 0 && compare(version, above(parts)) < 0;
    case '~':
      return compare(version, low) >= 0 && compare(version, above(parts.slice(0, Math.max(1, Math.min(2, parts.length))))) < 0;
    case '^': {
      const first = parts.findIndex((part, index) => part !== 0 || index === parts.length - 1);
      return compare(version, low) >= 0 && compare(version, above(parts.slice(0, Math.max(first, 0) + 1))) < 0;
    }
    default:
      throw new Error(`not a comparator: ${comparator}`);
  }
}

/** Whether an npm range (`^18.18 || >= 20.17`, `>=16 || 14 >=14.17`) admits `version`. */
export function rangeAdmits(range, version) {
  const target = full(partial(version));
  return range.split('||').some((alternative) => {
    // `>= 20` is one comparator: join an operator to the version after it, then split on spaces.
    const comparators = alternative.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean);
    return comparators.length === 0 || comparators.every((comparator) => admits(comparator, target));
  });
}

/** Findings about engines: packages whose `engines.node` leaves out the oldest Node package.json declares. */
export function enginesBelowDeclaredNode(manifest, lock) {
  const declared = manifest.engines?.node;
  const floor = declared && /^>=\s*(\d+(\.\d+){0,2})$/.exec(declared.trim());
  if (!floor) return [`package.json must declare its Node as ">=MAJOR.MINOR" (engines.node is ${JSON.stringify(declared)})`];
  const findings = [];
  for (const [where, entry] of Object.entries(lock.packages ?? {})) {
    const range = where !== '' && !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
    if (typeof range !== 'string') continue;
    try {
      if (!rangeAdmits(range, floor[1])) findings.push(`${packageName(where)}@${entry.version} needs Node ${range}; package.json declares ${declared} (pick a version that runs on ${floor[1]})`);
    } catch (error) {
      findings.push(`${packageName(where)}@${entry.version}: cannot read engines.node "${range}" (${error.message})`);
    }
  }
  return findings;
}

function main() {
  const root = new URL('../', import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8'));
  const findings = [...enginesBelowDeclaredNode(manifest, lock), ...undecidedInstallScripts(manifest, lock)];
  const logFile = process.argv[2];
  if (logFile) findings.push(...installWarnings(readFileSync(logFile, 'utf8')).map((line) => `npm ci: ${line}`));
  if (findings.length === 0) {
    process.stdout.write(`check-install-warnings: clean${logFile ? ` (${logFile} and the lockfile)` : ' (the lockfile)'}\n`);
    return 0;
  }
  process.stderr.write(`check-install-warnings: ${findings.length} finding(s)\n${findings.map((finding) => `  ${finding}`).join('\n')}\n`);
  return 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
