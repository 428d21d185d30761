import { describe, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** CHROME_PATH, else `chromium` or `chromium-browser` on PATH (Debian's package; `.ci/run` installs it). */
export function findBrowser(): string | undefined {
  if (process.env.CHROME_PATH) return existsSync(process.env.CHROME_PATH) ? process.env.CHROME_PATH : undefined;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const candidate = path.join(dir, name);
      if (dir && existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * `describe` when a Chromium is found. Without one, a developer's run skips
 * the suite and says so; under CI (CI=true, which `.ci/run` sets after
 * installing Debian's chromium) the suite fails instead: a browser test that
 * silently did not run there would read as passed.
 */
export function describeInBrowser(what: string, name: string, body: (browserPath: string) => void): void {
  const browserPath = findBrowser();
  if (browserPath) {
    describe(name, () => body(browserPath));
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('has a Chromium to run in', () => {
        throw new Error('no chromium found (chromium, chromium-browser or CHROME_PATH), and CI installs one: the browser test cannot run');
      });
    });
    return;
  }
  process.stderr.write(`no chromium found (chromium, chromium-browser or CHROME_PATH): skipping the ${what} browser test\n`);
  describe.skip(name, () => body(''));
}
