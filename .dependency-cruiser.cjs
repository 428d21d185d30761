/**
 * Architecture rules checked by `npm test` (style.md, "Comments and habits";
 * issue #9, "rules that bite"). Domain code stays pure and knows nothing of the
 * application around it; contexts meet only through each other's index.ts; the
 * platform knows no context, and neither do the shared readers of reference
 * data (libs/reference-data: OSM, PBF, GTFS), which any context may import
 * through their index.ts; test helpers stay in tests.
 *
 * Every rule is proven by a deliberate violation in test/architecture/fixtures,
 * cruised by test/architecture/boundaries.spec.ts with these same rules. The
 * fixture tree mirrors the repository (libs/<ctx>/src/..., apps/, test/) under
 * its own folder, so the spec sets DEPCRUISE_ROOT to that folder and every path
 * pattern below is anchored there instead of at the repository root.
 *
 * What a context's index.ts may publish is not a rule here: dependency-cruiser
 * sees files, and a contract is a matter of kinds of symbol (types, ports and
 * their tokens, bus messages, errors, the module, the definition). That is
 * scripts/check-contracts.mjs, run by `npm test` after this cruise and proven
 * by test/architecture/contracts.spec.ts (docs/adr/0066).
 *
 * Test code (decided here): *.spec.ts, *.int-spec.ts, *.e2e-spec.ts, the
 * *.contract.ts suites, `testing/` and `__fixtures__/` folders, and all of
 * test/. Test code may use the helpers in a context's `testing/` folders and in
 * test/support/; nothing else may. It does NOT get a pass on the boundaries:
 * a spec inside a context reaches another context through its index.ts like
 * production code, and test/ reaches the contexts through their index.ts, the
 * apps (which it boots) and the testing helpers — an e2e test that needs a
 * context's internals is testing the wrong thing, or the context is missing an
 * export.
 */
const root = process.env.DEPCRUISE_ROOT ? process.env.DEPCRUISE_ROOT.replace(/\/?$/, '/') : '';
const at = `^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;

/** A domain folder anywhere in a context: src/domain/, src/geofences/domain/, ... ($1 = the context). */
const domain = `${at}libs/([^/]+)/src/(|.+/)domain/`;
const tests = [
  '\\.(spec|int-spec|e2e-spec)\\.ts$',
  '\\.contract\\.ts$',
  '/(testing|__fixtures__)/',
  `${at}test/`,
];
const testHelpers = [`${at}libs/[^/]+/src/(|.+/)testing/`, `${at}test/support/`];
/** What a domain file may take from the platform: the error base class, the decider type, the geodesy and the caller-id and reporter-identity rules (pure). */
const platformForDomain = ['errors\\.ts$', 'commands/decider\\.ts$', 'geo/geodesy\\.ts$', 'ids/caller-id\\.ts$', 'ids/reporters\\.ts$'];
/**
 * Nest, the drivers and the servers. The module is matched resolved (inside
 * node_modules) or, should it not resolve, by its bare name: either way the
 * edge is seen, because node_modules is only not followed, never excluded.
 */
const frameworksAndDrivers =
  '(^|(^|/)node_modules/)(@nestjs|@eventstore|@kurrent|@fastify|mongodb|lmdb|kafkajs|ioredis|bullmq|fastify|nodemailer|smtp-server)(/|$)';

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'domain/ holds events, deciders, value objects and errors: no Nest, no drivers, and of the platform only errors.ts, the Decider type, geo/geodesy.ts and ids/caller-id.ts (its specs may also use the testing helpers, which testing-stays-in-tests keeps out of the code itself)',
      severity: 'error',
      from: { path: domain },
      to: {
        path: [frameworksAndDrivers, `${at}libs/platform/src/(?!${platformForDomain.join('|')}|(|.+/)testing/)`],
      },
    },
    {
      name: 'domain-no-io-builtins',
      comment:
        'domain code does no I/O; its specs may (e.g. reading stored-event fixtures), the code under test may not',
      severity: 'error',
      from: { path: domain, pathNot: tests },
      to: {
        dependencyTypes: ['core'],
        path: '^(node:)?(fs|fs/promises|net|http|http2|https|tls|child_process|dgram|dns|dns/promises|cluster|worker_threads|readline)$',
      },
    },
    {
      name: 'domain-not-application',
      comment:
        "domain code imports only domain code of its own context: no handlers, controllers, modules, services, views, codecs, apps or projections (another context's types come through contexts-through-index)",
      severity: 'error',
      from: { path: domain },
      to: {
        path: [`${at}libs/$1/src/`, `${at}(apps|projections)/`],
        pathNot: [`${at}libs/$1/src/(|.+/)domain/`, ...testHelpers],
      },
    },
    {
      name: 'contexts-through-index',
      comment:
        "another context is reached only through its src/index.ts; the exceptions are the platform's errors.ts and Decider type (for domain code), its pool's thread side, threads/work-task.ts (for pool thread modules), a context's src/thread-surface.ts (pure functions for worker threads) and the testing helpers (for tests, see testing-stays-in-tests)",
      severity: 'error',
      from: { path: `${at}libs/([^/]+)/src/` },
      to: {
        path: `${at}libs/[^/]+/src/(?!index\\.ts$)`,
        pathNot: [
          `${at}libs/$1/src/`,
          ...platformForDomain.map((file) => `${at}libs/platform/src/${file}`),
          // A pool thread's module takes serveTask alone: the platform's index would load every driver into each thread.
          `${at}libs/platform/src/threads/work-task\\.ts$`,
          // A context's pure surface for worker threads (docs/adr/0044): what a thread of another context may load without its index.
          `${at}libs/[^/]+/src/thread-surface\\.ts$`,
          ...testHelpers,
        ],
      },
    },
    {
      name: 'apps-and-projections-through-index',
      comment: 'apps and projections use a context only through its src/index.ts (their tests may also use the testing helpers)',
      severity: 'error',
      from: { path: `${at}(apps|projections)/` },
      to: { path: `${at}libs/[^/]+/src/(?!index\\.ts$)`, pathNot: testHelpers },
    },
    {
      name: 'tests-through-index',
      comment: 'test/ boots the apps and reaches a context only through its src/index.ts or its testing helpers',
      severity: 'error',
      from: { path: `${at}test/` },
      to: { path: `${at}libs/[^/]+/src/(?!index\\.ts$)`, pathNot: testHelpers },
    },
    {
      name: 'bench-through-index',
      comment:
        "bench/ (npm run bench) reaches a context as test/ does: through its src/index.ts or its testing helpers; an internal a benchmark times is re-exported by the context's testing/benchmarked.ts, never by its contract",
      severity: 'error',
      from: { path: `${at}bench/` },
      to: { path: `${at}libs/[^/]+/src/(?!index\\.ts$)`, pathNot: testHelpers },
    },
    {
      name: 'slices-stand-alone',
      comment:
        "a slice (src/commands/<slice>/ or src/queries/<slice>/, in a context or one of its sub-areas) imports no file of another slice: what two slices share (a declaration, a read model, an answer schema, a request base, a doc string) lives in the context's domain or a shared file outside the slices; its tests may exercise several slices",
      severity: 'error',
      from: { path: `${at}libs/([^/]+)/src/(|.+/)(commands|queries)/([^/]+)/`, pathNot: tests },
      to: {
        path: `${at}libs/$1/src/(|.+/)(commands|queries)/[^/]+/`,
        pathNot: `${at}libs/$1/src/$2$3/$4/`,
      },
    },
    {
      name: 'platform-knows-no-context',
      severity: 'error',
      from: { path: `${at}libs/platform/` },
      to: { path: `${at}(libs/(?!platform/)|apps/|projections/)` },
    },
    {
      name: 'reference-data-knows-no-context',
      comment:
        'libs/reference-data holds the readers of third-party formats (OSM XML and PBF, GTFS) every context may use (docs/adr/0011): it imports only the platform, so no context is pulled in with them',
      severity: 'error',
      from: { path: `${at}libs/reference-data/` },
      to: { path: `${at}(libs/(?!platform/|reference-data/)|apps/|projections/)` },
    },
    {
      name: 'testing-stays-in-tests',
      comment: 'production code never imports a testing helper or anything under test/',
      severity: 'error',
      from: { path: `${at}(apps|libs|projections)/`, pathNot: tests },
      to: { path: [...testHelpers, `${at}test/`] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Followed no further, but the edge into node_modules is kept, so the
    // framework and driver bans above can fire (an `exclude` would drop it).
    doNotFollow: { path: '(^|/)node_modules/' },
    // The build output and DATA_DIR of this checkout, anchored: unanchored, it
    // would also drop the edge to a package whose entry is node_modules/x/dist/.
    // The fixtures break the rules on purpose; the boundaries spec cruises them.
    exclude: { path: [`${at}(dist|data)/`, ...(root ? [] : ['^test/architecture/fixtures/'])] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
