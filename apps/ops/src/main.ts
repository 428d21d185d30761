import { readFile } from 'node:fs/promises';
import { dumpOpenApi } from './openapi-dump.js';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { accessJournalDir, accessStream, JournaledAccessRecorder, verifyChain, type ApiAccessRecorded } from '../../../libs/audit/src/index.js';
import { AsOfRegistry, buildBundle, checkpointsByStream, jwksFromLog, replayAsOf, verifyCheckpoints } from '../../../libs/compliance/src/index.js';
import {
  collectionName,
  CommandPipeline,
  ConfigError,
  loadConfig,
  openEventStore,
  openReadStore,
  ReadModels,
  rebuildProjection,
  StreamNotFoundError,
  type EventRegistry,
  type Config,
  type EventStore,
  type ReadStore,
} from '../../../libs/platform/src/index.js';
import {
  accountView,
  changeTier,
  IpAllowlist,
  issueLegacyKey,
  KeyDirectory,
  keyRecordView,
  replaceIpAllowlist,
  setBankingAccess,
  TIERS,
  type Tier,
} from '../../../libs/accounts/src/index.js';
import { systemClock } from '../../../libs/platform/src/index.js';
import { eventRegistry, manifests, projections } from '../../shared/runtime.js';
import { appRoot, basemapSources, buildBasemap, buildStarterPack, DEFAULT_PACK, DEFAULT_SOURCES, parseRecipe, readManifest, STARTER_BASEMAP } from '../../../libs/starter/src/index.js';
import { rotateSigningKeysFromCli } from '../../../libs/identity/src/index.js';
import { SecretBox } from '../../../libs/platform/src/index.js';
import { graphsRoot, importRoads, prepareRoadGraph } from '../../../libs/routing/src/index.js';
import { weatherImportCli } from '../../../libs/weather/src/index.js';
import {
  Gazetteer,
  importBoundaries,
  importGeoNames,
  importOsm,
  referenceRoot,
  ReferenceStore,
  REVIEW_DECISIONS,
  ReviewLandmarkCommand,
  ReviewLandmarkHandler,
  type ImportOptions,
  type ImportResult,
  type ReviewDecision,
} from '../../../libs/places/src/index.js';
import { GtfsImportError, importGtfs, type GtfsImportReport } from '../../../libs/transit/src/index.js';

/** Bad arguments: exit code 64 with the command's usage. */
class UsageError extends Error {}

/**
 * What operator commands work on: the log and the read models only. The job
 * queue and the Kafka relay belong to the running service (the embedded queue
 * admits one process), so the CLI can run beside it.
 */
interface Runtime {
  backends: { events: EventStore; readStore: ReadStore };
  registry: EventRegistry;
  config: Config;
}

/**
 * The operator's command line: `npm run ops -- <command> [args]`.
 * Exit codes: 0 done, 1 the check failed, 64 bad usage.
 */
const commands: Record<string, { usage: string; run: (runtime: Runtime, args: string[]) => Promise<number> }> = {
  'projections:list': { usage: 'projections:list', run: listProjections },
  'projections:rebuild': { usage: 'projections:rebuild NAME', run: rebuild },
  'audit:verify': { usage: 'audit:verify [STREAM]   (default: every access_log-* chain; its signed checkpoints too)', run: verifyAudit },
  'audit:replay': { usage: 'audit:replay ACCOUNT_ID --at ISO   (the account as it stood then: docs/adr/0023)', run: replayAccount },
  'audit:export': { usage: 'audit:export ACCOUNT_ID|platform [--from ISO] [--to ISO]   (a bundle for tools/verify-audit-bundle.mjs, on stdout)', run: exportBundle },
  'accounts:banking': {
    usage: 'accounts:banking ACCOUNT_ID true|false',
    run: (runtime, args) => operate(runtime, args, 2, (commands, accountId) => commands.run(setBankingAccess, { type: 'SetBankingAccess', account_id: accountId, enabled: parseBoolean(args[1]) })),
  },
  'accounts:tier': {
    usage: 'accounts:tier ACCOUNT_ID free|basic|pro|enterprise',
    run: (runtime, args) => operate(runtime, args, 2, (commands, accountId) => commands.run(changeTier, { type: 'ChangeTier', account_id: accountId, tier: parseTier(args[1]) })),
  },
  'accounts:ip-allowlist': {
    usage: 'accounts:ip-allowlist ACCOUNT_ID [ENTRY …]   (no entries removes the allowlist)',
    run: (runtime, args) =>
      operate(runtime, args, 1, (commands, accountId) =>
        commands.run(replaceIpAllowlist, { type: 'ReplaceIpAllowlist', account_id: accountId, entries: [...IpAllowlist.parse(args.slice(1)).entries] }),
      ),
  },
  'keys:issue': { usage: 'keys:issue NAME free|basic|pro|enterprise   (a legacy key without an account)', run: issueLegacy },
  'import:geonames': { usage: 'import:geonames FILE [--dataset NAME]   (GeoNames dump, e.g. GH.txt)', run: (_, args) => runImport('import:geonames', args, (store, [file], options) => importGeoNames(store, file, options)) },
  'import:osm': { usage: 'import:osm FILE [--dataset NAME]   (.osm XML or .osm.pbf; POIs)', run: (_, args) => runImport('import:osm', args, (store, [file], options) => importOsm(store, file, options)) },
  'import:boundaries': { usage: 'import:boundaries FILE [FILE …]   (GeoJSON admin boundaries, level 1 and 2)', run: (_, args) => runImport('import:boundaries', args, (store, files, options) => importBoundaries(store, files, options), true) },
  'import:gtfs': { usage: 'import:gtfs FILE.zip [--dataset NAME]   (a GTFS feed → transit/NAME, default transit/gtfs)', run: (_, args) => runImport('import:gtfs', args, importGtfsReporting) },
  'import:roads': {
    usage: 'import:roads FILE   (.osm XML, .osm.gz or .osm.pbf; the road network for routing, prepared at once)',
    run: (_, args) =>
      runImport('import:roads', args, async (store, [file], options) => {
        const result = await importRoads(store, file, options);
        // The routing graph of the new version, so the running service swaps it in without preparing it itself.
        const prepared = await prepareRoadGraph(graphsRoot(loadConfig()), result.version, (phase, done, total) => options.onProgress?.({ phase, done, total, records: result.version.manifest.records }));
        return { ...result, stats: { ...result.stats, ...prepared } };
      }),
  },
  'weather:import': { usage: 'weather:import FILE [FILE …]   (CAP 1.2 alerts, XML; signatures verified when present)', run: (runtime, args) => weatherImportCli({ dataDir: runtime.config.dataDir, events: runtime.backends.events, registry: runtime.registry }, args, (line) => process.stdout.write(`${line}\n`)) },
  'reference:list': { usage: 'reference:list   (reference datasets and their versions)', run: listReference },
  'landmarks:review': { usage: 'landmarks:review SLUG keep|exclude   (settles reports: narration may name it again, or never)', run: reviewLandmark },
  'signing-keys:rotate': { usage: 'signing-keys:rotate   (a new key signs certificates and receipts; the old one stays in the JWKS)', run: rotateSigningKeys },
};

/** Commands that need neither the configuration nor the backends. */
const standalone: Record<string, { usage: string; run: (args: string[]) => Promise<number> }> = {
  'openapi:dump': { usage: 'openapi:dump FILE   (the served OpenAPI document, keys sorted: the typed client is generated from it)', run: dumpOpenApi },
  'starter:build': { usage: 'starter:build DIR [--sources DIR] [--recipe FILE]   (the starter pack from its sources; default sources ../shared/data, recipe starter/ghana/recipe.json)', run: buildStarter },
  'starter:basemap': { usage: 'starter:basemap [--out FILE]   (the starter basemap from starter/ghana, replacing TILES_DIR/starter.pmtiles by default: docs/adr/0027)', run: buildStarterBasemapCli },
};

const [name, ...args] = process.argv.slice(2);
const command = name ? commands[name] : undefined;
const standaloneCommand = name ? standalone[name] : undefined;
if (standaloneCommand) {
  let exitCode = 1;
  try {
    exitCode = await standaloneCommand.run(args);
  } catch (error) {
    process.stderr.write(`${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof UsageError) process.stderr.write(`usage: npm run ops -- ${standaloneCommand.usage}\n`);
    exitCode = error instanceof UsageError ? 64 : 1;
  }
  process.exit(exitCode);
}
if (!command) {
  process.stderr.write(`usage: npm run ops -- <command>\n${[...Object.values(commands), ...Object.values(standalone)].map((c) => `  ${c.usage}`).join('\n')}\n`);
  process.exit(name ? 64 : 0);
}
try {
  process.loadEnvFile('.env');
} catch {
  // No .env file: configuration comes from the environment alone.
}
let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`configuration error: ${error.message}\n`);
  process.exit(78);
}
const runtime: Runtime = {
  backends: {
    events: await openEventStore({ eventStoreUrl: config.eventStoreUrl, dataDir: config.dataDir }),
    readStore: await openReadStore({ mongodbUrl: config.mongodbUrl, mongodbDatabase: config.mongodbDatabase, dataDir: config.dataDir }),
  },
  registry: eventRegistry(),
  config,
};
let code = 1;
try {
  code = await command.run(runtime, args);
} catch (error) {
  process.stderr.write(`${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof UsageError) process.stderr.write(`usage: npm run ops -- ${command.usage}\n`);
  code = error instanceof UsageError ? 64 : 1;
} finally {
  await runtime.backends.readStore.close();
  await runtime.backends.events.close();
}
process.exit(code);

function parseBoolean(value: string | undefined): boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  throw new UsageError(`expected true or false, got "${value ?? ''}"`);
}

function parseTier(value: string | undefined): Tier {
  if ((TIERS as readonly string[]).includes(value ?? '')) return value as Tier;
  throw new UsageError(`tier must be one of ${TIERS.join(', ')}`);
}

/**
 * The admin endpoints' own commands, through a command pipeline of this
 * process: the key directory is read from the log first, and is the read
 * model the commands wait for.
 */
async function withCommands<T>(runtime: Runtime, run: (commands: CommandPipeline, directory: KeyDirectory) => Promise<T>): Promise<T> {
  const directory = new KeyDirectory(runtime.backends.events, runtime.registry);
  await directory.start();
  try {
    const readModels = new ReadModels().register(KeyDirectory.readModel, directory.follower);
    const commands = new CommandPipeline(runtime.backends.events, runtime.registry, readModels, systemClock, {
      waitMs: 10_000,
      resolve: (token) => {
        throw new Error(`the operator CLI has no container to resolve ${String(token)}`);
      },
    });
    return await run(commands, directory);
  } finally {
    await directory.onModuleDestroy();
  }
}

async function operate(runtime: Runtime, args: string[], minArgs: number, command: (commands: CommandPipeline, accountId: string) => Promise<{ state: Parameters<typeof accountView>[0] }>): Promise<number> {
  if (args.length < minArgs || !args[0]) throw new UsageError('missing arguments');
  const { state } = await withCommands(runtime, (commands) => command(commands, args[0]));
  process.stdout.write(`${JSON.stringify(accountView(state), null, 2)}\n`);
  return 0;
}

async function issueLegacy(runtime: Runtime, args: string[]): Promise<number> {
  const [name, tier] = args;
  if (!name) throw new UsageError('missing NAME');
  const { key, record } = await withCommands(runtime, (commands, directory) => issueLegacyKey(commands, directory, { name, tier: parseTier(tier) }));
  process.stdout.write(`${JSON.stringify(keyRecordView(record, key), null, 2)}\n`);
  return 0;
}

async function listProjections(runtime: Runtime): Promise<number> {
  for (const projection of projections) {
    const checkpoint = await runtime.backends.readStore.getCheckpoint(`projection:${collectionName(projection)}`);
    process.stdout.write(`${projection.name}\tv${projection.version}\t${collectionName(projection)}\tcheckpoint ${checkpoint ?? 'none'}\n`);
  }
  return 0;
}

async function rebuild(runtime: Runtime, args: string[]): Promise<number> {
  const projection = projections.find((candidate) => candidate.name === args[0]);
  if (!projection) {
    process.stderr.write(`unknown projection "${args[0] ?? ''}"; known: ${projections.map((p) => p.name).join(', ')}\n`);
    return 64;
  }
  const bar = progressBar('rebuilding ' + projection.name);
  const result = await rebuildProjection(projection, runtime.backends.events, runtime.backends.readStore, runtime.registry, (progress) =>
    bar.update(Number(progress.position), Number(progress.head), progress.applied),
  );
  bar.stop();
  process.stdout.write(`rebuilt ${collectionName(projection)}: ${result.applied} events applied up to position ${result.position}\n`);
  return 0;
}

/**
 * The embedded store's access entries reach the event store through a journal
 * (ADR 0004): store what a stopped api process left in it before reading the
 * chains. A running api process holds it and stores its entries within ~25 ms.
 */
async function settleAccessJournal(runtime: Runtime): Promise<void> {
  if (runtime.config.eventStoreUrl) return;
  const outcome = await JournaledAccessRecorder.settle(runtime.backends.events, runtime.registry, accessJournalDir(runtime.config.dataDir));
  if (outcome === 'held') process.stderr.write('note: the service is running; access entries answered in the last ~25 ms may not be in the chains yet\n');
}

async function verifyAudit(runtime: Runtime, args: string[]): Promise<number> {
  await settleAccessJournal(runtime);
  const streams = args.length > 0 ? args : await accessStreams(runtime);
  let failures = 0;
  let jwks: Awaited<ReturnType<typeof jwksFromLog>> | undefined;
  let heads: Awaited<ReturnType<typeof checkpointsByStream>> | undefined;
  for (const stream of streams) {
    let events;
    try {
      events = await runtime.backends.events.readStream(stream);
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
      process.stdout.write(`${stream}: no such stream\n`);
      failures++;
      continue;
    }
    const chain = events.map((event) => event.data as ApiAccessRecorded['data']);
    const verdict = verifyChain(chain);
    // Signed checkpoints (docs/adr/0023): removing the newest entries up to the latest one is caught here.
    const signed = verdict.ok ? verifyCheckpoints(stream, chain, (heads ??= await checkpointsByStream(runtime.backends.events)).get(stream) ?? [], (jwks ??= await jwksFromLog(runtime.backends.events)).keys) : undefined;
    if (verdict.ok && signed?.ok) process.stdout.write(`${stream}: ok, ${verdict.entries} entries, head ${verdict.head}, ${signed.checkpoints} signed checkpoints up to seq ${signed.covered}\n`);
    else if (signed && !signed.ok) {
      failures++;
      process.stdout.write(`${stream}: BROKEN: ${signed.reason}\n`);
    } else if (!verdict.ok) {
      failures++;
      process.stdout.write(`${stream}: BROKEN at entry ${verdict.brokenAt} of ${verdict.entries}: ${verdict.reason}\n`);
    }
  }
  if (streams.length === 0) process.stdout.write('no access_log streams yet\n');
  return failures === 0 ? 0 : 1;
}

/** Value of `--name VALUE` in args, or undefined. */
function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const value = args[index + 1];
  if (!value || Number.isNaN(Date.parse(value))) throw new UsageError(`${name} needs an ISO 8601 time`);
  return value;
}

async function replayAccount(runtime: Runtime, args: string[]): Promise<number> {
  const at = option(args, '--at');
  if (!args[0] || args[0].startsWith('--') || !at) throw new UsageError('missing arguments');
  await settleAccessJournal(runtime);
  const answer = await replayAsOf(runtime.backends.events, runtime.registry, AsOfRegistry.fromManifests(manifests), args[0], new Date(at));
  process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
  return 0;
}

async function exportBundle(runtime: Runtime, args: string[]): Promise<number> {
  if (!args[0] || args[0].startsWith('--')) throw new UsageError('missing arguments');
  const stream = accessStream(args[0] === 'platform' ? null : args[0]);
  await settleAccessJournal(runtime);
  const bundle = await buildBundle(runtime.backends.events, systemClock, stream, { from: option(args, '--from'), to: option(args, '--to') });
  process.stdout.write(`${JSON.stringify(bundle)}\n`);
  return 0;
}

async function accessStreams(runtime: Runtime): Promise<string[]> {
  const streams = new Set<string>();
  let after = 0n;
  const bar = progressBar('scanning the log');
  const head = await runtime.backends.events.headPosition();
  for (;;) {
    const page = await runtime.backends.events.readAll({ after, maxCount: 5000 });
    if (page.length === 0) break;
    for (const event of page) if (event.streamName.startsWith('access_log-')) streams.add(event.streamName);
    after = page[page.length - 1].position;
    bar.update(Number(after), Number(head > after ? head : after), streams.size);
  }
  bar.stop();
  return [...streams].sort();
}

/** The reference-data importers (libs/places, docs/adr/0011): a bar per phase, then the new version and its figures. */
async function runImport(
  name: string,
  args: string[],
  run: (store: ReferenceStore, files: string[], options: ImportOptions) => Promise<ImportResult>,
  manyFiles = false,
): Promise<number> {
  const files: string[] = [];
  let dataset: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--dataset' && !manyFiles) dataset = args[++i];
    else if (args[i].startsWith('--')) throw new UsageError(`unknown option ${args[i]}`);
    else files.push(args[i]);
  }
  if (files.length === 0 || (!manyFiles && files.length > 1) || (args.includes('--dataset') && !dataset)) throw new UsageError('expected FILE');
  const store = new ReferenceStore(referenceRoot(loadConfig()));
  let phase = '';
  let bar: ReturnType<typeof progressBar> | null = null;
  const result = await run(store, files, {
    dataset,
    onProgress: (progress) => {
      if (progress.phase !== phase) {
        bar?.stop();
        phase = progress.phase;
        bar = progressBar(`${name} ${phase}`);
      }
      bar!.update(progress.done, progress.total, progress.records);
    },
  }).finally(() => bar?.stop());
  process.stdout.write(`${name}: ${result.version.dataset} is now ${result.version.version} (${result.version.manifest.records} records)\n`);
  for (const [key, value] of Object.entries(result.stats)) process.stdout.write(`  ${key}: ${value}\n`);
  return 0;
}

/** A GTFS import prints its report (problems, counts, examples) whether it succeeds or is refused (docs/adr/0019). */
async function importGtfsReporting(store: ReferenceStore, [file]: string[], options: ImportOptions): Promise<ImportResult> {
  const printReport = (report: GtfsImportReport) => {
    const lines = report.summary();
    process.stdout.write(lines.length === 0 ? 'import:gtfs: no problem found in the feed\n' : `import:gtfs: ${lines.length} kind(s) of problem in the feed:\n${lines.map((line) => `  ${line}`).join('\n')}\n`);
  };
  try {
    const result = await importGtfs(store, file, { dataset: options.dataset, onProgress: options.onProgress });
    printReport(result.report);
    process.stdout.write(`  full report: ${path.join(result.version.directory, 'import-report.json')}\n`);
    return result;
  } catch (error) {
    if (error instanceof GtfsImportError) printReport(error.report);
    throw error;
  }
}

async function listReference(): Promise<number> {
  const entries = await new ReferenceStore(referenceRoot(loadConfig())).list();
  for (const entry of entries) {
    process.stdout.write(`${entry.current ? '*' : ' '} ${entry.dataset}\t${entry.version}\t${entry.manifest?.records ?? '?'} records\t${entry.manifest?.sources.join(', ') ?? 'no manifest'}\n`);
  }
  if (entries.length === 0) process.stdout.write('no reference dataset imported yet\n');
  return 0;
}

/** A bar on a terminal; on a pipe (CI, logs) a line every 10 %. */
function progressBar(label: string): { update(value: number, total: number, applied: number): void; stop(): void } {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {percentage}% | {value}/{total} | {applied} applied`, stream: process.stderr },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(value, total, applied) {
        if (!started) {
          bar.start(total, 0, { applied: 0 });
          started = true;
        }
        bar.setTotal(total);
        bar.update(value, { applied });
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastDecile = -1;
  return {
    update(value, total, applied) {
      const decile = total === 0 ? 10 : Math.floor((value / total) * 10);
      if (decile !== lastDecile) {
        lastDecile = decile;
        process.stderr.write(`${label}: ${Math.min(decile * 10, 100)}% (${value}/${total}, ${applied} applied)\n`);
      }
    },
    stop: () => undefined,
  };
}

/** The same event as POST /v2/admin/landmarks/{slug}/review; the slug is checked against the live place sets. */
async function reviewLandmark(runtime: Runtime, args: string[]): Promise<number> {
  const [slug, decision] = args;
  if (!slug) throw new UsageError('missing SLUG');
  if (!(REVIEW_DECISIONS as readonly string[]).includes(decision ?? '')) throw new UsageError(`decision must be one of ${REVIEW_DECISIONS.join(', ')}`);
  const log = { info: () => undefined, error: (fields: Record<string, unknown>) => process.stderr.write(`${JSON.stringify(fields)}\n`) };
  const gazetteer = new Gazetteer(new ReferenceStore(referenceRoot(loadConfig())), log, 0);
  await gazetteer.start();
  // The service's narration feed and projection take the event from the log; the CLI has neither to wait for.
  const readModels = new ReadModels().register('narration_feed', { waitFor: async () => undefined }).register('landmark_reports', { waitFor: async () => undefined });
  const commands = new CommandPipeline(runtime.backends.events, runtime.registry, readModels, systemClock, { waitMs: 10_000, resolve: () => undefined });
  const reviews = new ReviewLandmarkHandler(commands, { bySlugKey: (key) => gazetteer.landmarks().byKeyOf(key) });
  const result = await reviews.execute(new ReviewLandmarkCommand(slug, decision as ReviewDecision, 'ops'));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}

/**
 * The starter pack (docs/adr/0017) from its recipe's sources: a line per step
 * on stderr, the manifest's summary on stdout. Paths given are relative to the
 * working directory; the defaults to the repository.
 */
async function buildStarter(args: string[]): Promise<number> {
  let outDir: string | undefined;
  const root = appRoot();
  let sourcesDir = path.resolve(root, DEFAULT_SOURCES);
  let recipeFile = path.resolve(root, DEFAULT_PACK, 'recipe.json');
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--sources' && args[i + 1]) sourcesDir = path.resolve(args[++i]);
    else if (args[i] === '--recipe' && args[i + 1]) recipeFile = path.resolve(args[++i]);
    else if (args[i].startsWith('--') || outDir !== undefined) throw new UsageError(`unexpected argument ${args[i]}`);
    else outDir = path.resolve(args[i]);
  }
  if (!outDir) throw new UsageError('expected DIR');
  const recipeText = await readFile(recipeFile, 'utf8').catch((error: Error) => {
    throw new UsageError(`recipe ${recipeFile}: ${error.message}`);
  });
  const started = Date.now();
  const manifest = await buildStarterPack({
    recipe: parseRecipe(recipeText, recipeFile),
    recipeText,
    sourcesDir,
    outDir,
    onProgress: (line) => process.stderr.write(`starter:build: ${line}\n`),
  });
  const bytes = Object.values(manifest.files).reduce((sum, file) => sum + file.bytes, 0);
  process.stdout.write(`starter:build: ${manifest.name} pack in ${outDir}: ${Object.keys(manifest.files).length + 1} files, ${(bytes / 1e6).toFixed(2)} MB, ${Date.now() - started} ms\n`);
  for (const dataset of manifest.datasets) process.stdout.write(`  ${dataset.kind}\t${dataset.dataset ?? '(no importer yet)'}\t${Object.entries(dataset.counts).map(([key, value]) => `${key} ${value}`).join(', ')}\n`);
  return 0;
}

/** The starter basemap built again (the service builds it only when absent): a line per phase on stderr, the summary on stdout. */
async function buildStarterBasemapCli(args: string[]): Promise<number> {
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out' && args[i + 1]) out = path.resolve(args[++i]);
    else throw new UsageError(`unexpected argument ${args[i]}`);
  }
  const packDir = path.resolve(appRoot(), DEFAULT_PACK);
  const file = out ?? path.join(loadConfig().tilesDir, `${STARTER_BASEMAP}.pmtiles`);
  let phase = '';
  const build = await buildBasemap(basemapSources(packDir, await readManifest(packDir)), file, (progress) => {
    if (progress.phase === phase) return;
    phase = progress.phase;
    process.stderr.write(`starter:basemap: ${phase}…\n`);
  });
  process.stdout.write(`starter:basemap: ${file}: ${build.tiles} tiles, ${(build.bytes / 1e6).toFixed(2)} MB, ${build.road_features} roads, ${build.boundary_features} boundaries, ${build.ms} ms\n`);
  return 0;
}

/** The same event as POST /v2/admin/signing-keys/rotate; private keys are sealed with DATA_ENCRYPTION_KEY as the service does. */
async function rotateSigningKeys(runtime: Runtime): Promise<number> {
  const config = loadConfig();
  const secretBox = await SecretBox.fromConfig({ dataEncryptionKey: config.dataEncryptionKey, dataDir: config.dataDir });
  const result = await rotateSigningKeysFromCli({ events: runtime.backends.events, registry: runtime.registry, secretBox, clock: systemClock, rotatedBy: 'ops:cli', waitMs: config.projectionWaitMs });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}
