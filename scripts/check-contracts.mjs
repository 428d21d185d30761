#!/usr/bin/env node
/**
 * A context's contract is what its src/index.ts exports (issue 52, docs/adr/0066). This check reads every
 * context's index with the TypeScript compiler and sorts each exported symbol by its KIND, wherever in the
 * context it is declared (no folder gets a pass):
 *
 *   type      an interface, a type alias, or anything exported with `export type` (erased at run time)
 *   constant  a const that is data: a token, a manifest, a definition, an event-type list, a limit, a schema
 *             (a const whose value is a function is a function; one holding an instance of an
 *             implementation class is that implementation)
 *   enum      a named set of values
 *   error     a class that extends Error (what callers catch)
 *   message   a bus contract: a class that extends @nestjs/cqrs's Command or Query (the platform's
 *             PipelineCommand is one) or implements ICommand, IQuery or IEvent
 *   module    a class decorated with @Module, or a function answering a DynamicModule (what the apps import)
 *   definition  the context's ContextDefinition, or a JobKindBinding it hands the composition root
 *   port      an abstract class: an interface that is also its own injection token
 *   function  a function, allowed only where it is pure domain language (declared in the context's domain/,
 *             which domain-is-pure keeps free of I/O and of the application) — the one kind whose home decides
 *
 * Everything else is an implementation (a concrete class that is none of the above, a function outside the
 * domain, a const holding either) and stays inside: another context that needs one gets a port.
 *
 * Usage: node scripts/check-contracts.mjs [--root <dir>] [--counts]
 *   --root    the folder holding libs/ (default: the repository; the spec points it at a fixture)
 *   --counts  print the exported symbols per context and kind (--json: the same as one JSON line)
 * Exit status: 0 when every index publishes only contract kinds, 1 otherwise (each offender is printed).
 */
import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Not contexts: the platform and the readers of reference data are shared kernels (docs/adr/0011). */
const KERNELS = new Set(['platform', 'reference-data']);
const ALLOWED = new Set(['type', 'constant', 'enum', 'error', 'message', 'module', 'definition', 'port', 'function']);

/**
 * Implementations an index still publishes, by why (issue 52: the surface was 115 of them; this list only
 * shrinks). Each entry is `<context>.<symbol>`; one that is no longer published must leave the list (the
 * check fails on a stale entry), one not listed fails the check. Not applied to a --root fixture.
 */
const NOT_YET = {
  // The composition root (apps/api serve.ts, apps/ops, apps/shared/contexts.ts) wires these into the process;
  // they belong in the context's definition (hooks, operator commands, job bindings), not in a named export.
  composition: [
    'accounts.InFlight', 'accounts.KeyDirectory', 'accounts.ipThrottle', 'accounts.rateLimitHeadersOnEveryResponse', 'accounts.ApiKeyGuard',
    'audit.accessListener', 'addressing.BulkHexcodeJob', 'compliance.AuditExportJob', 'weather.WeatherAlerts',
    'weather.weatherImportCli', 'starter.buildStarterPack', 'starter.basemapSources', 'starter.buildBasemap',
    'starter.parseRecipe', 'starter.readManifest', 'starter.appRoot', 'places.Gazetteer', 'routing.RoadNetwork',
  ],
  // The projections (top-level projections/, outside every context) fold events into these read models.
  projections: [
    'banking.isLoanDoc', 'banking.evolveLoanDoc', 'banking.eraseLoanDoc', 'banking.CollectionLoans',
    'banking.evolveScheduleDoc', 'banking.eraseScheduleDoc', 'banking.ReverificationSchedules',
    'identity.linkDocId', 'identity.observationsDocId', 'identity.signalUpdates', 'locator.evolveShareDoc',
    'locator.ShareDirectory', 'monitoring.geofenceDoc', 'places.evolveLandmarkReportDoc', 'webhooks.erasureMarkerId',
  ],
  // Compliance's customer copy reads these (issue 52 item 2 gave it the audit-trail and signing-keys ports).
  compliance: ['webhooks.CustomerDeliveries'],
  // Another context calls these; each is to become a port (interface + token) of the context that implements it.
  ports: [
    'places.Landmarks', 'places.importGeoNames', 'places.importOsm', 'places.importBoundaries',
    'routing.RoadConditionsSlot',
    'tiles.glyphRangesFor', 'tiles.writeGlyphRanges', 'tiles.buildVectorArchive', 'tiles.tileOf',
  ],
  // Only test/ and bench/ use these: they belong in the context's testing/ helpers.
  tests: [
    'accounts.BackgroundTasks', 'accounts.rateTable', 'identity.observationsOf', 'locator.PositionSealing',
    'monitoring.FenceIndex', 'routing.importRoads', 'routing.IsochroneService', 'transit.importGtfs', 'transit.TransitNetwork', 'transit.PlannerPool',
    'starter.verifyPack',
  ],
};

const args = process.argv.slice(2);
const root = path.resolve(args.includes('--root') ? args[args.indexOf('--root') + 1] : path.join(import.meta.dirname, '..'));
const counts = args.includes('--counts');
const notYet = args.includes('--root') ? new Map() : new Map(Object.entries(NOT_YET).flatMap(([why, names]) => names.map((name) => [name, why])));
const seen = new Set();

const contexts = readdirSync(path.join(root, 'libs'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !KERNELS.has(entry.name) && existsSync(path.join(root, 'libs', entry.name, 'src/index.ts')))
  .map((entry) => entry.name)
  .sort();
const indexes = contexts.map((name) => path.join(root, 'libs', name, 'src/index.ts'));

const program = ts.createProgram(indexes, {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  experimentalDecorators: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
});
const checker = program.getTypeChecker();

function heritage(declaration, token) {
  return (declaration.heritageClauses ?? []).filter((clause) => clause.token === token).flatMap((clause) => clause.types);
}

/** The names of the class's ancestors and of the interfaces it (or an ancestor) implements. */
function ancestry(declaration, seen = new Set()) {
  const names = [];
  for (const type of [...heritage(declaration, ts.SyntaxKind.ExtendsKeyword), ...heritage(declaration, ts.SyntaxKind.ImplementsKeyword)]) {
    let symbol = checker.getSymbolAtLocation(type.expression);
    if (!symbol) continue;
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    names.push(symbol.name);
    for (const parent of symbol.declarations ?? []) {
      if (ts.isClassDeclaration(parent) && !seen.has(parent)) {
        seen.add(parent);
        names.push(...ancestry(parent, seen));
      }
    }
  }
  return names;
}

/** The name of what a function returns: a definition, a module or a job binding is composed, not called for a result. */
function returns(type) {
  return type.getCallSignatures().map((signature) => {
    const result = checker.getReturnTypeOfSignature(signature);
    return (result.aliasSymbol ?? result.getSymbol())?.name;
  });
}
const COMPOSED = { ContextDefinition: 'definition', DynamicModule: 'module', JobKindBinding: 'definition' };

function isDecoratedModule(declaration) {
  return (ts.getDecorators(declaration) ?? []).some((decorator) => {
    const call = decorator.expression;
    return ts.isCallExpression(call) && ts.isIdentifier(call.expression) && call.expression.text === 'Module';
  });
}

function classKind(declaration) {
  if (isDecoratedModule(declaration)) return 'module';
  const names = ancestry(declaration);
  if (names.some((name) => name === 'Error')) return 'error';
  if (names.some((name) => ['Command', 'Query', 'ICommand', 'IQuery', 'IEvent'].includes(name))) return 'message';
  if (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Abstract) return 'port';
  return 'implementation class';
}

function inDomain(file, context) {
  const relative = path.relative(path.join(root, 'libs', context, 'src'), file).split(path.sep);
  return !relative[0].startsWith('..') && relative.slice(0, -1).includes('domain');
}

/** `export { type X }` or `export type { X }`: only the shape is published, never a value (a class so exported cannot be constructed). */
function typeOnly(exported) {
  return (exported.declarations ?? []).some(
    (node) => ts.isExportSpecifier(node) && (node.isTypeOnly || node.parent.parent.isTypeOnly),
  );
}

/** The kind of one exported symbol (see the header). */
function kindOf(symbol, context) {
  const declaration = symbol.declarations?.[0];
  if (!declaration) return 'unknown';
  const file = declaration.getSourceFile().fileName;
  if (symbol.flags & ts.SymbolFlags.Class) return classKind(declaration);
  if (symbol.flags & ts.SymbolFlags.Enum) return 'enum';
  if (symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable)) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    const composed = returns(type).map((name) => COMPOSED[name]).find(Boolean);
    if (composed) return composed;
    if (type.getCallSignatures().length > 0) return inDomain(file, context) ? 'function' : 'implementation function';
    if (!(symbol.flags & ts.SymbolFlags.Variable)) return 'unknown';
    const named = (type.aliasSymbol ?? type.getSymbol())?.name;
    if (named && COMPOSED[named]) return COMPOSED[named];
    const instanceOf = type.getSymbol()?.declarations?.find((node) => ts.isClassDeclaration(node));
    if (instanceOf && classKind(instanceOf) === 'implementation class') return 'implementation instance';
    return 'constant';
  }
  if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) return 'type';
  return 'unknown';
}

let offences = 0;
const table = [];
for (const [i, context] of contexts.entries()) {
  const source = program.getSourceFile(indexes[i]);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) {
    console.error(`${context}: src/index.ts could not be read`);
    offences++;
    continue;
  }
  const byKind = {};
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const kind = typeOnly(exported) ? 'type' : kindOf(symbol, context);
    if (!ALLOWED.has(kind) && notYet.has(`${context}.${exported.name}`)) {
      seen.add(`${context}.${exported.name}`);
      byKind['not yet'] = (byKind['not yet'] ?? 0) + 1;
      continue;
    }
    if (!ALLOWED.has(kind)) {
      offences++;
      const where = path.relative(root, symbol.declarations?.[0]?.getSourceFile().fileName ?? indexes[i]);
      console.error(`${context}: ${exported.name} is an ${kind} (${where}); publish a port, a type or a message instead`);
    }
    byKind[kind] = (byKind[kind] ?? 0) + 1;
  }
  table.push({ context, total: Object.values(byKind).reduce((a, b) => a + b, 0), ...byKind });
}
for (const name of notYet.keys()) {
  if (seen.has(name)) continue;
  offences++;
  console.error(`${name} is listed in NOT_YET but no longer published as an implementation: take it off the list`);
}
if (counts) console.table(table);
if (args.includes('--json')) console.log(JSON.stringify(table));
if (offences > 0) {
  console.error(`${offences} export(s) outside the contract kinds (scripts/check-contracts.mjs, docs/adr/0066)`);
  process.exit(1);
}
console.log(`contracts: ${contexts.length} indexes publish only contract kinds`);
