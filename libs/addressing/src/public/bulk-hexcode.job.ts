import { Injectable, Module, type DynamicModule, type Type } from '@nestjs/common';
import type { JobKind, JobRunContext } from '../../../jobs/src/index.js';
import { InvalidParamError } from '../../../platform/src/index.js';
import { bulkAnswerChunks, CHUNK_ITEMS } from '../domain/bulk.js';
import { MAX_BULK_JOB_ITEMS } from '../domain/bulk-job.js';
import { DEFAULT_ADDRESS_RESOLUTION } from '../domain/hexcode.js';
import { ReverseNamer } from '../naming/reverse-namer.js';
import { REVERSE_PLACES, type ReversePlaces } from '../naming/reverse-names.port.js';

/** What a `hexcode.bulk` job carries: the request body as received (UTF-8 JSON), parsed by the worker. */
export interface BulkHexcodeJobInput {
  body: string;
}

/** Progress is recorded every this many items. */
const PROGRESS_ITEMS = 8 * CHUNK_ITEMS;

/**
 * POST /v2/hexcode/bulk above the synchronous limit, run by a worker: the
 * same answer (`{success, data: {items, count, failed, provenance}}`, each
 * item as the synchronous call codes it, with its `index` in the whole
 * batch). The request as a whole is checked here (INVALID_PARAM fails the
 * job, as the synchronous call answers 400); one bad item fails only itself.
 * Point items are named with the places the worker holds; the worker does not
 * load the road network, so `address.road` is null in a job's answer.
 */
@Injectable()
export class BulkHexcodeJob implements JobKind<BulkHexcodeJobInput> {
  readonly kind = 'hexcode.bulk';

  constructor(private readonly namer: ReverseNamer) {}

  async run(input: BulkHexcodeJobInput, context: JobRunContext): Promise<Buffer> {
    let body: unknown;
    try {
      body = JSON.parse(input.body);
    } catch {
      throw new InvalidParamError('the body is not JSON', 'items');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidParamError('the body must be an object with items', 'items');
    const { items, resolution = DEFAULT_ADDRESS_RESOLUTION } = body as { items?: unknown; resolution?: unknown };
    if (!Array.isArray(items)) throw new InvalidParamError('items must be an array', 'items');
    if (items.length > MAX_BULK_JOB_ITEMS) throw new InvalidParamError(`items holds at most ${MAX_BULK_JOB_ITEMS} items in a job; split the batch`, 'items');
    if (typeof resolution !== 'number' || !Number.isInteger(resolution) || resolution < 0 || resolution > 15) throw new InvalidParamError('resolution must be an integer from 0 to 15', 'resolution');
    const name = this.namer.enabled ? (lat: number, lng: number) => this.namer.name(lat, lng) : undefined;
    const chunks: Buffer[] = [];
    let done = 0;
    for (const chunk of bulkAnswerChunks(items, resolution, name)) {
      chunks.push(Buffer.from(chunk));
      done = Math.min(items.length, done + CHUNK_ITEMS);
      if (done % PROGRESS_ITEMS === 0 && done < items.length) await context.progress(done, items.length);
    }
    return Buffer.concat(chunks);
  }
}

/**
 * The `hexcode.bulk` kind for the jobs worker, naming points with the
 * reference places the composition root binds (the places context's
 * Gazetteer, as for GET /v2/reverse).
 */
export function bulkHexcodeJobModule<T extends ReversePlaces>(places: { module: Type<unknown> | DynamicModule; provider: abstract new (...args: never[]) => T }): DynamicModule {
  return {
    module: BulkHexcodeJobModule,
    imports: [places.module],
    providers: [{ provide: REVERSE_PLACES, useExisting: places.provider }, ReverseNamer, BulkHexcodeJob],
    exports: [BulkHexcodeJob],
  };
}
@Module({})
export class BulkHexcodeJobModule {}
