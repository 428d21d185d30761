import { readFile } from 'node:fs/promises';
import { dumpOpenApi } from './openapi-dump.js';
import path from 'node:path';
import {
  collectionName,
  ConfigError,
  FileDatasetStore,
  loadConfig,
  openEventStore,
  openReadStore,
  progressBar,
  rebuildProjection,
  referenceRoot,
  UsageError,
  type DatasetDeclaration,
  type DatasetImportOptions,
  type DatasetImportResult,
  type DatasetStore,
  type OperatorCommand,
  type OperatorRuntime,
} from '../../../libs/platform/src/index.js';
import { contexts } from '../../shared/contexts.js';
import { eventRegistry, manifests, projections } from '../../shared/runtime.js';
import { appRoot, basemapSources, buildBasemap, buildStarterPack, DEFAULT_PACK, DEFAULT_SOURCES, parseRecipe, readManifest, STARTER_BASEMAP } from '../../../libs/starter/src/index.js';
import { weatherImportCli } from '../../../libs/weather/src/index.js';

type Runtime = OperatorRuntime;

/** Every context's operator commands (its definition's `cli`); a name declared twice stops the CLI. */
function contextCommands(): Record<string, OperatorCommand> {
  const all: Record<string, OperatorCommand> = {};
  for (const context of contexts) {
    for (const [name, command] of Object.entries(context.cli ?? {})) {
      if (all[name]) throw new Error(`operator command ${name} is declared twice (context ${context.manifest.name})`);
      all[name] = command;
    }
  }
  return all;
}

/**
 * The operator's command line: `npm run ops -- <command> [args]`: the
 * projections', each context's (its definition's `cli`), the reference-data
 * imports. Exit codes: 0 done, 1 the check failed, 64 bad usage.
 */
const commands: Record<string, OperatorCommand> = {
  'projections:list': { usage: 'projections:list', run: listProjections },
  'projections:rebuild': { usage: 'projections:rebuild NAME', run: rebuild },
  ...contextCommands(),
  ...importCommands(manifests.flatMap((manifest) => manifest.datasets ?? [])),
  'weather:import': { usage: 'weather:import FILE [FILE …]   (CAP 1.2 alerts, XML; signatures verified when present)', run: (runtime, args) => weatherImportCli({ dataDir: runtime.config.dataDir, events: runtime.backends.events, registry: runtime.registry }, args, (line) => process.stdout.write(`${line}\n`)) },
  'reference:list': { usage: 'reference:list   (reference datasets and their versions)', run: listReference },
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
  manifests,
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
 * One `import:*` command per dataset a context's manifest declares (docs/adr/0011), in the manifests' order:
 * the declaration's own command steps (`cli.run`) or its importer.
 */
function importCommands(datasets: readonly DatasetDeclaration[]): Record<string, OperatorCommand> {
  return Object.fromEntries(
    datasets.map(({ cli, import: importer }) => [
      cli.command,
      {
        usage: `${cli.command} ${cli.usage}`,
        run: (_: Runtime, args: string[]) =>
          runImport(cli.command, args, (store, files, options) => (cli.run ? cli.run(store, files, { ...options, config: loadConfig(), print: (line) => process.stdout.write(`${line}\n`) }) : importer(store, files, options)), cli.files === 'many'),
      },
    ]),
  );
}

/** A declared importer run from the command line: a bar per phase, then the new version and its figures. */
async function runImport(
  name: string,
  args: string[],
  run: (store: DatasetStore, files: string[], options: DatasetImportOptions) => Promise<DatasetImportResult>,
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
  const store = new FileDatasetStore(referenceRoot(loadConfig()));
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

async function listReference(): Promise<number> {
  const entries = await new FileDatasetStore(referenceRoot(loadConfig())).list();
  for (const entry of entries) {
    process.stdout.write(`${entry.current ? '*' : ' '} ${entry.dataset}\t${entry.version}\t${entry.manifest?.records ?? '?'} records\t${entry.manifest?.sources.join(', ') ?? 'no manifest'}\n`);
  }
  if (entries.length === 0) process.stdout.write('no reference dataset imported yet\n');
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
  const config = loadConfig();
  const file = out ?? path.join(config.tilesDir, `${STARTER_BASEMAP}.pmtiles`);
  let phase = '';
  // The label glyphs go where the console serves them from (DATA_DIR/glyphs; ranges already there are kept).
  const build = await buildBasemap(basemapSources(packDir, await readManifest(packDir), path.join(config.dataDir, 'glyphs')), file, (progress) => {
    if (progress.phase === phase) return;
    phase = progress.phase;
    process.stderr.write(`starter:basemap: ${phase}…\n`);
  });
  process.stdout.write(
    `starter:basemap: ${file}: ${build.tiles} tiles, ${(build.bytes / 1e6).toFixed(2)} MB, ${build.road_features} roads, ${build.national_road_features} national road pieces, ` +
      `${build.boundary_features} boundaries, ${build.place_features} places, ${build.water_labels} water names, ${build.glyph_ranges} glyph ranges drawn; ${build.ms} ms ` +
      `(read ${build.phases_ms.read}, tile ${build.phases_ms.tile}, write ${build.phases_ms.write}, glyphs ${build.phases_ms.glyphs})\n`,
  );
  return 0;
}
