#!/usr/bin/env node
// The registry this project installs from serves only some platforms' builds of
// packages with native binaries (@swc/core-*, @unrs/resolver-binding-*, …), so
// `npm install` leaves the other platforms' optional packages out of
// package-lock.json, and `npm ci` then refuses the lock as out of sync.
// This adds the missing entries as optional, platform-restricted packages (what a
// lock written against the full registry records), so `npm ci` skips them.
// Run it after every `npm install` that changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
let added = 0;

for (const [where, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = where === '' ? 'node_modules' : `${where}/node_modules`;
    if (packages[`${base}/${name}`] || packages[`node_modules/${name}`]) continue;
    packages[`node_modules/${name}`] = { version: String(version).replace(/^[\^~]/, ''), optional: true, ...platformOf(name) };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`complete-lockfile: added ${added} optional platform package entries\n`);

function platformOf(name) {
  const os = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'netbsd', 'openbsd', 'sunos', 'aix'].find((candidate) => name.includes(`-${candidate}-`));
  const cpu = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'loong64', 'riscv64', 'mips64el'].find((candidate) => new RegExp(`-${candidate}(-|$)`).test(name));
  const libc = os === 'linux' ? (name.includes('musl') ? ['musl'] : name.includes('gnu') ? ['glibc'] : undefined) : undefined;
  return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}), ...(libc ? { libc } : {}) };
}
