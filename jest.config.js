/** Jest runs the TypeScript sources as native ES modules through SWC (see docs/adr/0001). */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts', '**/test/**/*.e2e-spec.ts'],
  // The architecture fixtures break the rules on purpose and are never run (boundaries.spec.ts cruises them).
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/data/', '/test/architecture/fixtures/'],
  setupFiles: ['<rootDir>/test/setup.ts'],
  globalSetup: '<rootDir>/test/global-setup.mjs',
  testTimeout: 30000,
  maxWorkers: 2,
  // Each test file loads the whole service's module graph in the worker, and the ESM loader keeps it: without a
  // limit the two workers reached ~4.6 GB each over the full run, and late files ran 5–10× slower than alone
  // (a unit spec of 18 s took 140 s; two tests timed out). A worker above this after a file is replaced.
  workerIdleMemoryLimit: '1.5GB',
};
