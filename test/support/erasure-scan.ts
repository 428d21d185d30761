import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The byte scan behind issue 47's "erasure is total": after a customer's
 * consent is revoked and their data erased, every store the service writes is
 * searched for what places the customer, as bytes, and every hit must be one
 * this file documents, as docs/guides/monitoring.md ("What survives erasure")
 * does store by store.
 *
 * Needles: the customer id (text), each coordinate the test sent (as text, as
 * float64 and float32 in both byte orders), the hex codes those coordinates
 * were answered with, and the consent's proof reference.
 */
export type NeedleKind = 'customer' | 'location' | 'proof';

export interface Needle {
  kind: NeedleKind;
  label: string;
  bytes: Buffer;
}

export interface Hit {
  /** Where: `file events/data.mdb`, `mongo collection_loans_v1`, `redis bull:webhooks:42`, `kafka topic@offset`, `log stdout`, `webhook delivery`. */
  where: string;
  needle: Needle;
}

/** A hit the documentation allows: a needle kind in a place, and why it stays. */
export interface Survivor {
  kind: NeedleKind;
  where: RegExp;
  why: string;
}

function float64(value: number, littleEndian: boolean): Buffer {
  const buffer = Buffer.alloc(8);
  if (littleEndian) buffer.writeDoubleLE(value);
  else buffer.writeDoubleBE(value);
  return buffer;
}

function float32(value: number, littleEndian: boolean): Buffer {
  const buffer = Buffer.alloc(4);
  if (littleEndian) buffer.writeFloatLE(value);
  else buffer.writeFloatBE(value);
  return buffer;
}

/** The needles for one customer: pick coordinates with six or seven decimals that nothing else in the data holds. */
export function needlesFor(input: { customerId: string; coordinates: number[]; hexCodes?: string[]; proofReference?: string }): Needle[] {
  const needles: Needle[] = [{ kind: 'customer', label: `customer id ${input.customerId}`, bytes: Buffer.from(input.customerId, 'utf8') }];
  for (const value of new Set(input.coordinates)) {
    needles.push({ kind: 'location', label: `${value} as text`, bytes: Buffer.from(String(value), 'utf8') });
    for (const littleEndian of [true, false]) {
      const order = littleEndian ? 'LE' : 'BE';
      needles.push({ kind: 'location', label: `${value} as float64 ${order}`, bytes: float64(value, littleEndian) });
      needles.push({ kind: 'location', label: `${value} as float32 ${order}`, bytes: float32(value, littleEndian) });
    }
  }
  for (const code of new Set(input.hexCodes ?? [])) needles.push({ kind: 'location', label: `hex code ${code}`, bytes: Buffer.from(code, 'utf8') });
  if (input.proofReference) needles.push({ kind: 'proof', label: `proof reference ${input.proofReference}`, bytes: Buffer.from(input.proofReference, 'utf8') });
  return needles;
}

/** Distinctive coordinates (seven decimals) nothing else in the data holds; each one is sent once, for one purpose. */
export const PLACES = {
  zone: { lat: 5.5497731, lng: -0.2107493 },
  ping: { lat: 5.6141237, lng: -0.1627419 },
  loan: { lat: 5.5512369, lng: -0.2093187 },
  kyc: { lat: 5.6038814, lng: -0.1869253 },
  device: { lat: 5.6036917, lng: -0.1871462 },
  courier: { lat: 5.6039583, lng: -0.1868724 },
} as const;

type Call = (method: string, url: string, init?: { key?: string; body?: unknown; headers?: Record<string, string> }) => Promise<Response>;

async function ok(response: Response): Promise<Record<string, unknown>> {
  const body = (await response.json()) as { data: Record<string, unknown>; error?: unknown };
  if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body.error)}`);
  return body.data;
}

/**
 * Gives the service everything that can place one customer, one coordinate
 * of PLACES per purpose: consent with a proof reference, a home zone, a loan
 * zone and a re-verification schedule at it, a ping away from home (a drift), a KYC verification with a position,
 * a proximity check's device fix and a proof of delivery. The account needs
 * banking access; `home` is the hex code the checks are made against.
 */
export async function placeCustomer(call: Call, input: { key: string; customerId: string; loanId: string; proofReference: string; home: string; run: string }): Promise<void> {
  const { key, customerId } = input;
  const capturedAt = new Date(Date.now() - 60_000).toISOString();
  await ok(await call('POST', '/v2/consent/grant', { key, body: { customer_id: customerId, purpose: 'loan_collections', channel: 'ussd', captured_at: capturedAt, proof: { kind: 'otp', reference: input.proofReference } } }));
  await ok(await call('PUT', `/v2/monitoring/zones/${customerId}`, { key, body: { ...PLACES.zone, tolerance_hops: 2 } }));
  await ok(await call('POST', '/v2/collections/register', { key, body: { loan_id: input.loanId, customer_id: customerId, zone: { type: 'point', ...PLACES.loan, radius_m: 300 } } }));
  // A re-verification schedule of the loan: its address is the loan point's hex code.
  await ok(await call('POST', '/v2/verify/schedule', { key, body: { loan_id: input.loanId, every_days: 30 } }));
  const recordedAt = new Date(Date.now() - 30_000).toISOString();
  await ok(await call('POST', '/v2/monitoring/pings', { key, body: { pings: [{ customer_id: customerId, ...PLACES.ping, recorded_at: recordedAt, device_id: `dev-${input.run}` }] } }));
  const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
  await ok(await call('POST', '/v2/kyc/verify', { key, body: { customer_id: customerId, address: input.home, positions: [{ ...PLACES.kyc, recorded_at: hourAgo, accuracy_m: 12 }] } }));
  await ok(await call('POST', '/v2/verify/proximity', { key, body: { customer_id: customerId, address: input.home, ...PLACES.device, accuracy_m: 10, device_id: `dev-${input.run}` } }));
  await ok(await call('POST', '/v2/pod/confirm', { key, body: { delivery_id: `dlv-${input.run}`, customer_id: customerId, ...PLACES.courier, accuracy_m: 8, address: input.home } }));
}

/**
 * Asks for the customer's copy as a job (`Prefer: respond-async`, docs/adr/0068) and waits until the worker
 * has made it: its stored form (`DATA_DIR/jobs/<account>/<job>.sealed`, and the job's input in the queue) is
 * then among the bytes the scan reads. Answers the job's location.
 */
export async function keepCopyJob(call: Call, key: string, customerId: string, timeoutMs = 60_000): Promise<string> {
  const accepted = await call('POST', '/v2/consent/access-request', { key, body: { customer_id: customerId }, headers: { prefer: 'respond-async' } });
  if (accepted.status !== 202) throw new Error(`the copy was not accepted as a job: ${accepted.status}`);
  const location = accepted.headers.get('location')!;
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const { status } = await ok(await call('GET', location, { key }));
    if (status === 'succeeded') return location;
    if (status === 'failed') throw new Error(`the copy job failed`);
  }
  throw new Error('the copy job did not finish in time');
}

/** The coordinates PLACES holds, as numbers. */
export const placedCoordinates = (): number[] => Object.values(PLACES).flatMap(({ lat, lng }) => [lat, lng]);

/** Every needle found in `bytes`, reported once per needle. */
export function scanBytes(where: string, bytes: Buffer, needles: readonly Needle[]): Hit[] {
  return needles.filter((needle) => bytes.indexOf(needle.bytes) >= 0).map((needle) => ({ where, needle }));
}

/** Every regular file under `dir`, read whole (LMDB files included: pages freed but not wiped are searched too). */
export function scanTree(dir: string, needles: readonly Needle[], label = 'file'): Hit[] {
  const hits: Hit[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && statSync(full).size > 0) hits.push(...scanBytes(`${label} ${path.relative(dir, full)}`, readFileSync(full), needles));
    }
  };
  walk(dir);
  return hits;
}

/**
 * Every stored event of an embedded event store, read as a process of the
 * deployment would: hits are named by the stream's category and the type
 * (`event consent/ConsentGranted`), so the documented survivors can say which.
 */
export async function scanEventStore(dir: string, needles: readonly Needle[]): Promise<Hit[]> {
  const { EmbeddedEventStore } = await import('../../libs/platform/src/index.js');
  const store = await EmbeddedEventStore.open(dir);
  const hits: Hit[] = [];
  try {
    for (let after = 0n; ; ) {
      const page = await store.readAll({ after, maxCount: 5000 });
      if (page.length === 0) break;
      for (const event of page) {
        const where = `event ${event.streamName.split('-')[0]}/${event.type}`;
        hits.push(...scanBytes(where, Buffer.from(JSON.stringify({ stream: event.streamName, data: event.data, metadata: event.metadata })), needles));
      }
      after = page.at(-1)!.position;
    }
  } finally {
    await store.close();
  }
  return dedupe(hits);
}

/**
 * Every live entry of the embedded read store (LMDB), named by its collection:
 * documents as stored (msgpack: numbers as float64), index keys, checkpoints.
 * Freed pages are not here: `scanTree` reads the whole file for those.
 */
export async function scanReadStore(dir: string, needles: readonly Needle[]): Promise<Hit[]> {
  const { open } = await import('lmdb');
  const env = open({ path: dir, noSubdir: false, readOnly: true, maxDbs: 8 });
  const hits: Hit[] = [];
  try {
    for (const name of ['docs', 'index', 'collections', 'checkpoints']) {
      const db = env.openDB<Buffer, Buffer>({ name, keyEncoding: 'binary', encoding: 'binary' });
      for (const { key, value } of db.getRange()) {
        const collection = /^[\x20-\x7e]*/.exec(Buffer.from(key).toString('latin1').replace(/^[^a-z_]+/, ''))?.[0] ?? '?';
        hits.push(...scanBytes(`read-model ${name} ${collection}`, Buffer.concat([Buffer.from(key), Buffer.from(value)]), needles));
      }
    }
  } finally {
    await env.close();
  }
  return dedupe(hits);
}

/** Every document of every collection of a MongoDB database, as the BSON bytes the server returns. */
export async function scanMongo(url: string, database: string, needles: readonly Needle[]): Promise<Hit[]> {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(url);
  const hits: Hit[] = [];
  try {
    const db = client.db(database);
    for (const { name } of await db.listCollections().toArray()) {
      for await (const raw of db.collection(name).find({}, { raw: true })) {
        hits.push(...scanBytes(`mongo ${name}`, Buffer.from(raw as unknown as Uint8Array), needles));
      }
    }
  } finally {
    await client.close();
  }
  return dedupe(hits);
}

/** Every key of a Redis database: its name and its value, whatever the type. */
export async function scanRedis(url: string, needles: readonly Needle[]): Promise<Hit[]> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url);
  const hits: Hit[] = [];
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scanBuffer(cursor, 'COUNT', 500);
      cursor = String(next);
      for (const name of keys) {
        const key = name.toString('utf8');
        const type = await redis.type(name);
        const parts: Buffer[] = [name];
        if (type === 'string') parts.push((await redis.getBuffer(name)) ?? Buffer.alloc(0));
        else if (type === 'hash') for (const [field, value] of Object.entries(await redis.hgetallBuffer(name))) parts.push(Buffer.from(field), value);
        else if (type === 'list') parts.push(...(await redis.lrangeBuffer(name, 0, -1)));
        else if (type === 'set') parts.push(...(await redis.smembersBuffer(name)));
        else if (type === 'zset') parts.push(...(await redis.zrangeBuffer(name, 0, -1)));
        else if (type === 'stream') parts.push(Buffer.from(JSON.stringify(await redis.xrange(name, '-', '+'))));
        hits.push(...scanBytes(`redis ${key.replace(/\d+/g, 'N')}`, Buffer.concat(parts), needles));
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return dedupe(hits);
}

/** Every message of the topics named with `prefix`, with the time each was written. */
export async function scanKafka(brokers: string, prefix: string, needles: readonly Needle[], options: { writtenAfter?: Date } = {}): Promise<Hit[]> {
  const { Kafka, logLevel } = await import('kafkajs');
  const kafka = new Kafka({ clientId: `erasure-scan-${process.pid}`, brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const hits: Hit[] = [];
  try {
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
    for (const topic of topics) {
      const offsets = await admin.fetchTopicOffsets(topic);
      const total = offsets.reduce((sum, partition) => sum + (Number(partition.high) - Number(partition.low)), 0);
      if (total === 0) continue;
      const consumer = kafka.consumer({ groupId: `erasure-scan-${process.pid}-${Date.now()}-${topic}` });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      let seen = 0;
      await new Promise<void>((resolve, reject) => {
        // Offsets a transaction marker or compaction took never arrive as messages: 10 s without one ends the topic.
        let idle = setTimeout(resolve, 10_000);
        consumer
          .run({
            eachMessage: async ({ message, partition }) => {
              clearTimeout(idle);
              idle = setTimeout(resolve, 10_000);
              seen++;
              const writtenAfter = !options.writtenAfter || Number(message.timestamp) >= options.writtenAfter.getTime();
              if (writtenAfter) {
                const parts = [message.key ?? Buffer.alloc(0), message.value ?? Buffer.alloc(0)];
                for (const [name, value] of Object.entries(message.headers ?? {})) parts.push(Buffer.from(name), Buffer.from(String(value)));
                hits.push(...scanBytes(`kafka ${topic.slice(prefix.length)}#${partition}`, Buffer.concat(parts), needles));
              }
              if (seen >= total) {
                clearTimeout(idle);
                resolve();
              }
            },
          })
          .catch(reject);
      });
      await consumer.disconnect();
    }
  } finally {
    await admin.disconnect();
  }
  return dedupe(hits);
}

function dedupe(hits: Hit[]): Hit[] {
  const seen = new Set<string>();
  return hits.filter((hit) => {
    const id = `${hit.where}\u0000${hit.needle.label}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * What may survive an erasure, by store (docs/guides/monitoring.md, "What
 * survives erasure"). Locations and the proof reference survive nowhere;
 * only the customer's id does, where the law or the integrity of the
 * records needs it.
 */
export const DOCUMENTED_SURVIVORS: readonly Survivor[] = [
  {
    kind: 'customer',
    where: /^event consent\/(ConsentGranted|ConsentRevoked|ConsentRecordSealed|CustomerDataErased)$/,
    why: 'the consent history (granted, revoked, erased; notice, capture and proof sealed under the destroyed record key): the evidence that the processing had a lawful basis and that the erasure was done (Act 843)',
  },
  {
    kind: 'customer',
    where: /^(event access_log\/ApiAccessRecorded|read-model (docs|index) access_log_v1|mongo access_log_v1)$/,
    why: 'the access audit trail: who called which endpoint about which customer, hash-chained and kept for the regulator; it holds no position',
  },
  {
    kind: 'customer',
    where: /^event (identity_verification\/(AddressVerified|ProximityVerified)|pod_delivery\/DeliveryConfirmed)$/,
    why: 'the decision records of KYC, proximity and proof of delivery (decision, time, consent reference) the lender must keep; every fix they held is sealed under the destroyed key',
  },
  {
    kind: 'customer',
    where: /^event collection_loan\/CollectionLoanRegistered$/,
    why: "the lender's loan book names the borrower; the loan zone is sealed under the destroyed key",
  },
  {
    kind: 'customer',
    where: /^event reverification_schedule\/(ReverificationScheduled|ReverificationCompleted)$/,
    why: "the lender's record of the schedules it made for the borrower and of their runs; the address is sealed under the destroyed key",
  },
  {
    kind: 'customer',
    where: /^file (events|read-models|access-journal)\//,
    why: 'the raw files of the stores above (the event store, the read store and the access journal): the customer id is there because the records above keep it; the logical scans say which record holds it',
  },
  {
    kind: 'customer',
    where: /^kafka /,
    why: 'integration events are relayed as stored: the consent history, and CustomerDataErased, which tells consumers which customer to erase; no position is relayed in the clear',
  },
];

/** The hits no documented survivor explains, as readable lines (an empty list passes). */
export function undocumented(hits: readonly Hit[], survivors: readonly Survivor[] = DOCUMENTED_SURVIVORS): string[] {
  return hits
    .filter((hit) => !survivors.some((survivor) => survivor.kind === hit.needle.kind && survivor.where.test(hit.where)))
    .map((hit) => `${hit.where}: ${hit.needle.label}`);
}
