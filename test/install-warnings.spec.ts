import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { enginesBelowDeclaredNode, installWarnings, rangeAdmits, undecidedInstallScripts } from '../scripts/check-install-warnings.mjs';

/**
 * Issue 50, item 3: `npm ci` with the declared Node prints no EBADENGINE and no
 * install-scripts warning. `.ci/run` scans its `npm ci` output with
 * scripts/check-install-warnings.mjs; here the same checks run on the committed
 * lockfile, so a dependency that would bring either warning back fails `npm test`.
 */
const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const script = path.join(root, 'scripts/check-install-warnings.mjs');

describe('a clean first install', () => {
  it('locks no package whose engines leave out the declared Node', () => {
    expect(manifest.engines.node).toMatch(/^>=20\./);
    expect(enginesBelowDeclaredNode(manifest, lock)).toEqual([]);
  });

  it('decides every install script in the lock in allowScripts, and names nothing else there', () => {
    expect(undecidedInstallScripts(manifest, lock)).toEqual([]);
  });

  it('finds what npm would warn about: an engine above the declared Node, an undecided or stale install script', () => {
    const packages = {
      '': { version: '1.0.0' },
      'node_modules/new-native': { version: '2.0.0', hasInstallScript: true },
      'node_modules/a/node_modules/@scope/modern': { version: '3.0.0', engines: { node: '>= 22' } },
      'node_modules/old-enough': { version: '1.0.0', engines: { node: '^18.18 || >=20.17' } },
    };
    const declared = { engines: { node: '>=20.19' }, allowScripts: { 'gone@1.0.0': false } };
    expect(enginesBelowDeclaredNode(declared, { packages })).toEqual(['@scope/modern@3.0.0 needs Node >= 22; package.json declares >=20.19 (pick a version that runs on 20.19)']);
    expect(undecidedInstallScripts(declared, { packages })).toEqual([
      'new-native has an install script that package.json\'s allowScripts does not decide (allow or deny it, and say why in README.md, "Development")',
      'allowScripts names gone, which has no install script in package-lock.json: remove the entry',
    ]);
    expect(enginesBelowDeclaredNode(declared, { packages: { 'node_modules/odd': { version: '1.0.0', engines: { node: 'node 20' } } } })).toEqual([
      'odd@1.0.0: cannot read engines.node "node 20" (not a version: node)',
    ]);
  });

  it('reads the engine ranges found in lockfiles as npm does', () => {
    const admitted = ['>=20.19', '>= 20', '^20.19.0 || >=22.12.0', '^16 || ^18 || >=20', '20 || >=22', '10.* || >= 12.*', '>=16 || 14 >=14.17', '*', '^20.12||^22||>=24', '~20.19.0', '20.x'];
    const refused = ['>=22', '>= 22', '^20.20.0 || >=22', '^18.18.0', '18 || >=22', '~20.18.0', '<20.19', '>20.19.0', '20.20.x'];
    expect(admitted.filter((range) => !rangeAdmits(range, '20.19.0'))).toEqual([]);
    expect(refused.filter((range) => rangeAdmits(range, '20.19.0'))).toEqual([]);
  });

  it('fails on the warning lines of an npm ci log, and passes a clean one (the .ci/run step)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'install-log-'));
    const noisy = path.join(dir, 'noisy.log');
    const clean = path.join(dir, 'clean.log');
    writeFileSync(
      noisy,
      ["npm warn EBADENGINE Unsupported engine {", "npm warn EBADENGINE   package: 'file-type@22.3.0',", 'npm warn install-scripts 1 package has install scripts not yet covered by allowScripts:', '', 'added 896 packages in 2m'].join('\n'),
    );
    writeFileSync(clean, '\nadded 896 packages in 2m\n');
    expect(installWarnings(readFileSync(noisy, 'utf8'))).toHaveLength(3);
    const failed = spawnSync(process.execPath, [script, noisy], { encoding: 'utf8' });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain("npm ci: npm warn EBADENGINE   package: 'file-type@22.3.0',");
    const passed = spawnSync(process.execPath, [script, clean], { encoding: 'utf8' });
    expect({ status: passed.status, stderr: passed.stderr }).toEqual({ status: 0, stderr: '' });
    expect(passed.stdout).toContain('clean');
  });
});
