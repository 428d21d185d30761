import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WorkPool } from '../../../../platform/src/index.js';
import { bulkAnswerChunks, type PointNamer } from '../../domain/bulk.js';
import { runBulkHexcodeJob, type BulkHexcodeJob, type BulkHexcodeOutcome } from './bulk-hexcode.job.js';

/**
 * The bulk hex-coding job in the compiled thread entry (dist/, which the test
 * run's global setup builds; skipped, saying so, without it) against the same
 * job in process, and both against the answer the handler made before it
 * moved to a thread (bulkAnswerChunks over the parsed items): the same bytes
 * for valid bodies, the same refusal for invalid ones (ADR 0041).
 */
const root = path.resolve(import.meta.dirname, '../../../../..');
const entry = path.join(root, 'dist/libs/addressing/src/queries/bulk-hexcode/bulk-hexcode.worker.js');
const built = existsSync(entry);
if (!built) process.stderr.write(`${entry} is not built (npm run build): skipping the compiled bulk hex-coding thread's tests\n`);

const points = Array.from({ length: 2_500 }, (_, index) => ({ lat: 5.5 + (index % 97) / 1000, lng: -0.25 + index / 20_000, ...(index % 5 === 0 ? { id: `shop-${index}-é😀` } : {}) }));
const mixed = [...points.slice(0, 300), '6Q3-HQK-Q4ZA', { code: 'bad!' }, { lat: 91, lng: 0 }, { lat: 5.6, lng: -0.18, resolution: 99 }, { lat: 5.6, lng: -0.18, colour: 'red' }, 42, null];
const VALID = [JSON.stringify({ items: points }), JSON.stringify({ items: mixed, resolution: 9 }), ` { "resolution" : 15 , "items" : [ "6Q3-HQK-Q4ZA" ] } `];
const INVALID: Array<[string | null, Record<string, unknown>]> = [
  ['{"items":[1,2', { status: 400, code: 'INVALID_JSON', field: 'body' }],
  ['', { status: 400, code: 'INVALID_JSON', field: 'body' }],
  ['null', { status: 400, code: 'INVALID_PARAM', field: 'body' }],
  ['[{"lat":1,"lng":2}]', { status: 400, code: 'INVALID_PARAM', field: 'body' }],
  ['{"items":"6Q3-HQK-Q4ZA"}', { status: 400, code: 'INVALID_PARAM', field: 'items' }],
  ['{"items":[]}', { status: 400, code: 'INVALID_PARAM', field: 'items' }],
  ['{"items":["6Q3-HQK-Q4ZA"],"resolution":16}', { status: 400, code: 'INVALID_PARAM', field: 'resolution' }],
  ['{"items":["6Q3-HQK-Q4ZA"],"resolutoin":12}', { status: 400, code: 'INVALID_PARAM', field: 'resolutoin', details: expect.objectContaining({ use: 'resolution' }) }],
  ['{"items":["\\ud800"]}', { status: 400, code: 'INVALID_PARAM', field: 'items[0]' }],
  ['{"items":[{"__proto__":{"x":1}}]}', { status: 400, code: 'INVALID_JSON' }],
  [null, { status: 400, code: 'INVALID_PARAM', field: 'items' }],
];

const job = (body: string | null, named = false): BulkHexcodeJob => ({ body: body === null ? null : Buffer.from(body), surrogateEscape: body !== null && /\\u[dD][89a-fA-F]/.test(body), named });
const text = (outcome: BulkHexcodeOutcome) => (outcome.kind === 'answer' ? Buffer.from(outcome.bytes).toString('utf8') : JSON.stringify(outcome.refusal));
const name: PointNamer = (lat, lng) => (lat > 5.55 ? null : ({ region: 'Greater Accra', locality: `near ${lat.toFixed(3)}, ${lng.toFixed(3)}` } as never));
function filled(outcome: BulkHexcodeOutcome): string {
  if (outcome.kind !== 'answer') throw new Error('refused');
  const bytes = Buffer.from(outcome.bytes);
  const parts: Buffer[] = [];
  let from = 0;
  outcome.gaps.forEach((gap, index) => {
    parts.push(bytes.subarray(from, gap), Buffer.from(JSON.stringify(name(outcome.points[2 * index], outcome.points[2 * index + 1]))));
    from = gap;
  });
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts).toString('utf8');
}
const before = (body: string, namer?: PointNamer) => {
  const parsed = JSON.parse(body) as { items: unknown[]; resolution?: number };
  return [...bulkAnswerChunks(parsed.items, parsed.resolution ?? 13, namer)].join('');
};

describe('the bulk hex-coding job in process', () => {
  const run = async (body: string | null, named = false) => (await runBulkHexcodeJob(job(body, named))).output;

  it('answers the bytes the handler answered before, named or not', async () => {
    for (const body of VALID) {
      const outcome = await run(body);
      expect(outcome).toMatchObject({ kind: 'answer', gaps: new Int32Array(0) });
      expect(text(outcome)).toBe(before(body));
      expect(filled(await run(body, true))).toBe(before(body, name));
    }
  });

  it('refuses an invalid body whole, as the validation pipe words it', async () => {
    for (const [body, refusal] of INVALID) expect({ body, outcome: await run(body) }).toEqual({ body, outcome: { kind: 'refused', refusal: expect.objectContaining(refusal) } });
  });
});

(built ? describe : describe.skip)('the bulk hex-coding job in the compiled thread', () => {
  let pool: WorkPool<BulkHexcodeJob, BulkHexcodeOutcome>;
  beforeAll(() => {
    pool = new WorkPool({
      name: 'hexcode-bulk-test',
      threads: 2,
      workerUrl: pathToFileURL(entry),
      inProcess: () => Promise.reject(new Error('the compiled module is not there')),
      busy: (reason) => new Error(reason),
      // A thread loads its modules in seconds on a busy machine: the time-out counts from the call.
      timeoutMs: 120_000,
    });
  });
  afterAll(() => pool?.close());

  it('answers what the job answers in process, byte for byte, refusals included', async () => {
    const bodies: Array<string | null> = [...VALID, ...INVALID.map(([body]) => body)];
    for (const named of [false, true]) {
      const threaded = await Promise.all(bodies.map((body) => pool.run(job(body, named))));
      expect(pool.threaded).toBe(true);
      for (const [index, body] of bodies.entries()) {
        const inProcess = (await runBulkHexcodeJob(job(body, named))).output;
        expect({ body, outcome: text(threaded[index]) }).toEqual({ body, outcome: text(inProcess) });
        if (inProcess.kind === 'answer' && threaded[index].kind === 'answer') {
          expect(filled(threaded[index])).toBe(filled(inProcess));
          expect(Array.from((threaded[index] as { points: Float64Array }).points)).toEqual(Array.from(inProcess.points));
        }
      }
    }
  }, 120_000);
});
