/**
 * Architecture rules checked by `npm test` (style.md, "Comments and habits").
 * Domain code stays pure; contexts meet only through each other's index.ts;
 * the platform knows no context.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain/** holds events, deciders and value objects: no Nest, no drivers, no I/O',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/domain/' },
      to: {
        path: '(^|/)node_modules/(@nestjs|@eventstore|mongodb|bullmq|ioredis|kafkajs|lmdb|fastify|nodemailer)|^libs/platform/src/(?!errors\\.ts$)',
      },
    },
    {
      name: 'domain-no-io-builtins',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/domain/' },
      to: { dependencyTypes: ['core'], path: '^(fs|net|http|https|child_process|dgram|dns)$' },
    },
    {
      name: 'contexts-through-index',
      comment: 'another context is reached only through its src/index.ts (domain code may take the platform error base)',
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/' },
      to: {
        path: '^libs/[^/]+/src/(?!index\\.ts$)',
        pathNot: ['^libs/$1/src/', '^libs/platform/src/errors\\.ts$'],
      },
    },
    {
      name: 'apps-and-projections-through-index',
      severity: 'error',
      from: { path: '^(apps|projections)/' },
      to: { path: '^libs/[^/]+/src/(?!index\\.ts$)' },
    },
    {
      name: 'platform-knows-no-context',
      severity: 'error',
      from: { path: '^libs/platform/' },
      to: { path: '^(libs/(?!platform/)|apps/|projections/)' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|data|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
