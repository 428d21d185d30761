import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventRegistry } from '../apps/shared/runtime.js';
import { FenceIndex, locationStream } from '../libs/monitoring/src/index.js';
// The benchmark builds monitoring's command pipeline by hand, so it reaches inside the context.
import {
  ConsentNoticeRegistry,
  ConsentProofCodec,
  ConsentRecordSealing,
  CustomerPseudonyms,
  grantConsent,
  LocationCaches,
  LocationCodec,
  RecordPingBatchCommand,
  RecordPingBatchHandler,
  recordCustomerPings,
  RecordPingsCommand,
  RecordPingsHandler,
  registerZone,
  type PingsResult,
} from '../libs/monitoring/src/testing/benchmarked.js';
import { LocationSealing } from '../libs/monitoring/src/testing/location-streams.js';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { CLOCK, CommandPipeline, EmbeddedDataKeyVault, EVENT_STORE, EmbeddedEventStore, EmbeddedReadStore, ReadModels, SecretBox, systemClock, type EventStore } from '../libs/platform/src/index.js';
import { drive } from './load.js';
import { toRow, type Check, type Row, type Sample, type Section } from './report.js';

/**
 * Ping ingestion (issue 4, "Throughput"): a RecordPingBatchCommand through
 * `CommandBus` (one `monitoring.record-pings` command per customer through
 * the command pipeline, without the read-model wait) with 10,000
 * active geofences and 10,000 customers with a zone, against raw appends of
 * as many events to the same embedded event store in the same run.
 *
 * What a ping costs beyond its append: the snapshot and stream-tail reads,
 * the consent read, the key lookup (cached), one HMAC and one AES-GCM seal per
 * ping, a geofence index lookup, drift against the zone, the ping-id index
 * and the sealed snapshot written after the append.
 *
 * Clients each send requests of `batch` pings for one random customer, one
 * request at a time; latency is per request. Half the customers wander out of
 * their zone now and then, so drift events are part of the load.
 */

export interface PingsBenchOptions {
  customers: number;
  fences: number;
  clients: number;
  batches: number[];
  seconds: number;
  rounds: number;
  /** The bus pair: interleaved blocks of `perBlock` one-ping requests through CommandBus and straight to the pipeline. */
  busPair: { blocks: number; perBlock: number };
  progress: (line: string) => void;
}

const ACCOUNT = 'acct_bench';
// Greater Accra: fences and zones are spread over about 40 × 40 km.
const ORIGIN = { lat: 5.45, lng: -0.45 };
const SPAN = 0.36;

interface Fixture {
  dir: string;
  events: EmbeddedEventStore;
  readStore: EmbeddedReadStore;
  vault: EmbeddedDataKeyVault;
  app: INestApplicationContext;
  bus: CommandBus;
  commands: CommandPipeline;
  homes: Array<{ lat: number; lng: number }>;
}

function randomPoint(): { lat: number; lng: number } {
  return { lat: ORIGIN.lat + Math.random() * SPAN, lng: ORIGIN.lng + Math.random() * SPAN };
}

async function openFixture(options: PingsBenchOptions): Promise<Fixture> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-pings-'));
  const registry = eventRegistry();
  const events = await EmbeddedEventStore.open(path.join(dir, 'events'));
  const readStore = await EmbeddedReadStore.open(path.join(dir, 'read-models'), { durability: 'committed' });
  const vault = await EmbeddedDataKeyVault.open(dir, SecretBox.fromKey(Buffer.alloc(32, 7)));
  const fences = new FenceIndex();
  for (let i = 0; i < options.fences; i += 1) {
    const centre = randomPoint();
    fences.add({
      account_id: ACCOUNT,
      fence_id: `gf_${i.toString(16).padStart(32, '0')}`,
      fence_type: 'circle',
      // Most fences belong to one customer, one in ten to the whole account.
      customer_id: i % 10 === 0 ? null : `cust-${i % options.customers}`,
      loan_id: `loan-${i}`,
      center: centre,
      radius_m: 100 + Math.random() * 900,
      polygon: null,
    } as never);
  }
  const secretBox = SecretBox.fromKey(Buffer.alloc(32, 9));
  const pseudonyms = CustomerPseudonyms.fromSecretBox(secretBox);
  const sealing = new LocationSealing(vault);
  const caches = new LocationCaches(readStore, pseudonyms);
  // The bench measures ingestion, not the drift projection nor the consents list (none runs here): the waits answer at once.
  const readModels = new ReadModels().register('drift_state', { waitFor: async () => undefined }).register('consents', { waitFor: async () => undefined });
  const deps = new Map<unknown, unknown>([
    [LocationCodec, new LocationCodec(sealing, caches, pseudonyms)],
    [LocationSealing, sealing],
    [LocationCaches, caches],
    [CustomerPseudonyms, pseudonyms],
    [FenceIndex, fences],
    // What a grant needs (as MonitoringModule provides it): the consent record's sealing, the proof codec, the
    // notice registry and the event store; no accounts context runs here, so no capture-time floor.
    [ConsentRecordSealing, new ConsentRecordSealing(vault, pseudonyms)],
    [ConsentProofCodec, new ConsentProofCodec(vault)],
    [EVENT_STORE, events],
  ]);
  const commands = new CommandPipeline(events, registry, readModels, systemClock, { waitMs: 5000, resolve: (token) => deps.get(token) });
  deps.set(CommandPipeline, commands);
  deps.set(ConsentNoticeRegistry, new ConsentNoticeRegistry(commands, events));
  // @nestjs/cqrs's CommandBus over the same pipeline, its handlers registered as in MonitoringModule.
  @Module({
    imports: [CqrsModule.forRoot()],
    providers: [{ provide: CommandPipeline, useValue: commands }, { provide: CLOCK, useValue: systemClock }, RecordPingsHandler, RecordPingBatchHandler],
  })
  class PingsBenchModule {}
  const app = await NestFactory.createApplicationContext(PingsBenchModule, { logger: false });
  await app.init();
  const bus = app.get(CommandBus);
  const homes: Fixture['homes'] = [];
  for (let start = 0; start < options.customers; start += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, options.customers - start) }, async (_, offset) => {
        const i = start + offset;
        const customer = `cust-${i}`;
        await commands.run(grantConsent, { type: 'GrantConsent', account_id: ACCOUNT, customer_id: customer, purpose: 'loan_collections', scope: ['location'] });
        const home = randomPoint();
        homes[i] = home;
        const { latLngToCell } = await import('h3-js');
        await commands.run(registerZone, { type: 'RegisterZone', account_id: ACCOUNT, customer_id: customer, home_cell: latLngToCell(home.lat, home.lng, 9), tolerance_hops: 2 });
      }),
    );
    if (start % 2000 === 0) options.progress(`pings: ${start + 200}/${options.customers} customers with consent and a zone`);
  }
  return { dir, events, readStore, vault, app, bus, commands, homes };
}

async function closeFixture(fixture: Fixture): Promise<void> {
  await fixture.app.close();
  await fixture.vault.close();
  await fixture.readStore.close();
  await fixture.events.close();
  rmSync(fixture.dir, { recursive: true, force: true });
}

let clock = Date.now() - 20 * 24 * 3_600_000;
/** Strictly increasing recorded_at times: every ping is new, and in order. */
function nextTime(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

function pingsFor(fixture: Fixture, customer: number, batch: number): Record<string, unknown>[] {
  const home = fixture.homes[customer];
  // Every other customer is 2 km from home at the moment: out of a 2-hop zone of ~174 m cells.
  const wandering = customer % 2 === 0 && Math.random() < 0.5;
  return Array.from({ length: batch }, () => ({
    customer_id: `cust-${customer}`,
    lat: home.lat + (wandering ? 0.018 : 0) + (Math.random() - 0.5) * 0.0005,
    lng: home.lng + (Math.random() - 0.5) * 0.0005,
    accuracy_m: 10,
    recorded_at: nextTime(),
  }));
}

function rawAppend(events: EventStore, fixture: Fixture, batch: number): () => Promise<number> {
  return async () => {
    const customer = Math.floor(Math.random() * fixture.homes.length);
    await events.append(
      `${locationStream(ACCOUNT, `cust-${customer}`)}-raw`,
      pingsFor(fixture, customer, batch).map((ping) => ({ type: 'PingRecorded', data: ping, metadata: { schema_version: 1 } })),
      'any',
    );
    return batch;
  };
}

export async function runPingsBench(options: PingsBenchOptions): Promise<Section> {
  options.progress(`pings: preparing ${options.customers} customers and ${options.fences} fences`);
  const fixture = await openFixture(options);
  const rows: Row[] = [];
  const checks: Check[] = [];
  let refused = 0;
  try {
    for (const batch of options.batches) {
      const raw: Sample[] = [];
      const ours: Sample[] = [];
      const ingest = async () => {
        const customer = Math.floor(Math.random() * fixture.homes.length);
        const { outcomes }: PingsResult = await fixture.bus.execute(new RecordPingBatchCommand(ACCOUNT, pingsFor(fixture, customer, batch), false));
        refused += outcomes.filter((outcome) => outcome.status !== 'accepted').length;
        return batch;
      };
      for (let round = 0; round < options.rounds; round += 1) {
        const order = round % 2 === 0 ? (['raw', 'ours'] as const) : (['ours', 'raw'] as const);
        for (const side of order) {
          const request = side === 'raw' ? rawAppend(fixture.events, fixture, batch) : ingest;
          await drive(options.clients, options.seconds / 5, request);
          const sample = await drive(options.clients, options.seconds, request);
          (side === 'raw' ? raw : ours).push(sample);
          options.progress(`pings batch ${batch}, ${side}, round ${round + 1}/${options.rounds}: ${Math.round(sample.ops / sample.seconds)} pings/s`);
        }
      }
      const baseline = toRow(`raw EventStore.append of ${batch} event(s)`, 'baseline', raw);
      rows.push(baseline, toRow(`recordPings, ${batch} ping(s) per request`, 'ours', ours, baseline));
    }
    const pair = await busPair(fixture, options);
    rows.push(...pair.rows);
    checks.push(pair.check);
    refused += pair.refused;
    const dispatch = await dispatchPair(options);
    rows.push(...dispatch.rows);
    checks.push(dispatch.check);
  } finally {
    await closeFixture(fixture);
  }
  checks.push({ name: 'every ping accepted', ok: refused === 0, detail: `${refused} pings not accepted` });
  return {
    id: 'pings',
    title: `Ping ingestion with ${options.fences} geofences and ${options.customers} zones vs raw appends (${options.clients} clients)`,
    unit: 'ping',
    settings: { customers: options.customers, fences: options.fences, clients: options.clients, batches: options.batches, seconds: options.seconds, rounds: options.rounds, busPair: options.busPair },
    rows,
    checks,
  };
}

/**
 * What `@nestjs/cqrs` adds to a command (issue 25: "the bus costs at most 2 µs
 * of CPU per request over the direct pipeline call"): one-ping requests for
 * random customers, one at a time, in blocks that alternate between
 * `CommandBus.execute(new RecordPingsCommand(input))` and
 * `CommandPipeline.run(recordCustomerPings, input)` (what the handler runs),
 * the side that goes first swapping every pair. CPU is this process's
 * (`process.cpuUsage`, user + system) over each block; the figure is the
 * difference of the pooled means, with the spread of the per-pair differences.
 */
async function busPair(fixture: Fixture, options: PingsBenchOptions): Promise<{ rows: Row[]; check: Check; refused: number }> {
  const { blocks, perBlock } = options.busPair;
  const samples = { bus: [] as Sample[], direct: [] as Sample[] };
  const differences: number[] = [];
  let refused = 0;
  const input = () => {
    const customer = Math.floor(Math.random() * fixture.homes.length);
    const [ping] = pingsFor(fixture, customer, 1);
    return {
      type: 'RecordPings' as const,
      account_id: ACCOUNT,
      customer_id: `cust-${customer}`,
      pings: [{ index: 0, lat: ping.lat as number, lng: ping.lng as number, accuracy_m: 10, recorded_at: ping.recorded_at as string, device_id: null }],
    };
  };
  const sides = {
    bus: () => fixture.bus.execute(new RecordPingsCommand(input())),
    direct: () => fixture.commands.run(recordCustomerPings, input()),
  };
  const block = async (side: keyof typeof sides): Promise<Sample> => {
    const latenciesMs: number[] = [];
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < perBlock; i += 1) {
      const begun = performance.now();
      const { events } = await sides[side]();
      if (events.length === 0) refused += 1;
      latenciesMs.push(performance.now() - begun);
    }
    const used = process.cpuUsage(cpu);
    return { ops: perBlock, seconds: (performance.now() - started) / 1000, latenciesMs, cpuMicros: used.user + used.system };
  };
  // Warm-up: both paths compiled and every cache as hot as it will be.
  for (const side of ['bus', 'direct'] as const) await block(side);
  for (let pair = 0; pair < blocks; pair += 1) {
    const order = pair % 2 === 0 ? (['bus', 'direct'] as const) : (['direct', 'bus'] as const);
    const measured: Partial<Record<keyof typeof sides, Sample>> = {};
    for (const side of order) {
      measured[side] = await block(side);
      samples[side].push(measured[side]!);
    }
    differences.push((measured.bus!.cpuMicros! - measured.direct!.cpuMicros!) / perBlock);
    if ((pair + 1) % Math.max(1, Math.floor(blocks / 5)) === 0) options.progress(`pings bus pair: ${pair + 1}/${blocks} pairs of ${perBlock} requests`);
  }
  const direct = toRow('CommandPipeline.run(recordCustomerPings, input), 1 ping per request, 1 client', 'baseline', samples.direct);
  // A whole command costs milliseconds of CPU here (an append, a seal, an index write), and the spread of one
  // pair's difference is hundreds of µs on a shared machine: this pair shows the bus changes nothing visible,
  // dispatchPair below resolves the microseconds.
  const bus = toRow('CommandBus.execute(new RecordPingsCommand(input)), same requests, interleaved', 'ours', samples.bus, direct);
  const cpuPerRequest = (side: Sample[]) => side.reduce((sum, s) => sum + s.cpuMicros!, 0) / side.reduce((sum, s) => sum + s.ops, 0);
  const difference = cpuPerRequest(samples.bus) - cpuPerRequest(samples.direct);
  const sorted = [...differences].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  const detail =
    `bus ${cpuPerRequest(samples.bus).toFixed(1)} µs, direct ${cpuPerRequest(samples.direct).toFixed(1)} µs CPU per request: ` +
    `${difference >= 0 ? '+' : ''}${difference.toFixed(2)} µs (per-pair differences p25 ${at(0.25).toFixed(1)}, median ${at(0.5).toFixed(1)}, p75 ${at(0.75).toFixed(1)} µs; ${blocks} pairs of ${perBlock})`;
  options.progress(`pings bus pair: ${detail}`);
  return { rows: [direct, bus], check: { name: 'a whole ping command through CommandBus costs no more CPU than the direct call, within the spread of the pairs', ok: difference <= at(0.75) - at(0.25), detail, goal: true }, refused };
}

/**
 * What the bus itself costs, without a command's own milliseconds around it:
 * the same two calls (`CommandBus.execute(new RecordPingsCommand(input))`
 * through the registered RecordPingsHandler, and `pipeline.run(recordCustomerPings, input)`)
 * over a pipeline that answers at once, in interleaved pairs of blocks in one
 * process. The difference per call is the bus's dispatch: the handler lookup
 * by the command's class, the publish to the command stream, the handler's
 * `execute` and the command object.
 */
async function dispatchPair(options: PingsBenchOptions): Promise<{ rows: Row[]; check: Check }> {
  const blocks = options.busPair.blocks * 5;
  const perBlock = 2000;
  const answered = { state: {}, events: [], previous: {}, command: {}, position: undefined };
  const instant = { run: async () => answered } as unknown as CommandPipeline;
  @Module({ imports: [CqrsModule.forRoot()], providers: [{ provide: CommandPipeline, useValue: instant }, RecordPingsHandler] })
  class DispatchBenchModule {}
  const app = await NestFactory.createApplicationContext(DispatchBenchModule, { logger: false });
  await app.init();
  const bus = app.get(CommandBus);
  const input = () => ({ type: 'RecordPings' as const, account_id: ACCOUNT, customer_id: 'cust-0', pings: [] });
  const sides = {
    bus: () => bus.execute(new RecordPingsCommand(input())),
    direct: () => instant.run(recordCustomerPings, input()),
  };
  const samples = { bus: [] as Sample[], direct: [] as Sample[] };
  const differences: number[] = [];
  const block = async (side: keyof typeof sides): Promise<Sample> => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < perBlock; i += 1) await sides[side]();
    const used = process.cpuUsage(cpu);
    return { ops: perBlock, seconds: (performance.now() - started) / 1000, latenciesMs: [], cpuMicros: used.user + used.system };
  };
  try {
    for (const side of ['bus', 'direct', 'bus', 'direct'] as const) await block(side);
    for (let pair = 0; pair < blocks; pair += 1) {
      const order = pair % 2 === 0 ? (['bus', 'direct'] as const) : (['direct', 'bus'] as const);
      const measured: Partial<Record<keyof typeof sides, Sample>> = {};
      for (const side of order) {
        measured[side] = await block(side);
        samples[side].push(measured[side]!);
      }
      differences.push((measured.bus!.cpuMicros! - measured.direct!.cpuMicros!) / perBlock);
    }
  } finally {
    await app.close();
  }
  const cpuPerCall = (side: Sample[]) => side.reduce((sum, s) => sum + s.cpuMicros!, 0) / side.reduce((sum, s) => sum + s.ops, 0);
  const difference = cpuPerCall(samples.bus) - cpuPerCall(samples.direct);
  const sorted = [...differences].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  const detail =
    `bus ${cpuPerCall(samples.bus).toFixed(2)} µs, direct ${cpuPerCall(samples.direct).toFixed(2)} µs CPU per call: ` +
    `${difference >= 0 ? '+' : ''}${difference.toFixed(2)} µs (per-pair differences p25 ${at(0.25).toFixed(2)}, median ${at(0.5).toFixed(2)}, p75 ${at(0.75).toFixed(2)} µs; ${blocks} pairs of ${perBlock})`;
  options.progress(`pings dispatch pair: ${detail}`);
  const direct = toRow('pipeline.run(recordCustomerPings, input), a pipeline answering at once', 'baseline', samples.direct);
  const viaBus = toRow('CommandBus.execute(new RecordPingsCommand(input)), same pipeline, interleaved', 'ours', samples.bus, direct);
  return { rows: [direct, viaBus], check: { name: 'CommandBus costs at most 2 µs of CPU per request over the direct pipeline call', ok: difference <= 2, detail, goal: true } };
}
