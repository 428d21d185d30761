/**
 * Node module hooks that let a plain `node` child process run this repo's
 * TypeScript sources, so the crash and multi-process tests drive the real
 * adapter rather than a copy of it. Register with `--import ./register-ts.mjs`.
 * Test-only: production runs the compiled output.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from '@swc/core';

/** The sources import siblings as `./x.js` (NodeNext style); on disk they are `./x.ts`. */
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('.') || specifier.startsWith('file:');
    if (relative && specifier.endsWith('.js')) return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    throw error;
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const filename = fileURLToPath(url);
  const { code } = await transform(await readFile(filename, 'utf8'), {
    filename,
    // Mirrors jest.config.js, which is how these sources are compiled in tests.
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  });
  return { format: 'module', source: code, shortCircuit: true };
}
