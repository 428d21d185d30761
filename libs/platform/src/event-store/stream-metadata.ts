import { InvalidParamError } from '../errors.js';
import type { StreamMetadata } from './event-store.port.js';

/**
 * The one shape both adapters store and return: absent limits are left out and
 * an empty `custom` is dropped, because EventStoreDB cannot tell `{}` from no
 * custom entries and the contract suite compares the two adapters' answers.
 */
export function normalizeStreamMetadata(metadata: StreamMetadata): StreamMetadata {
  const out: StreamMetadata = {};
  if (metadata.maxAge !== undefined) out.maxAge = positiveInteger('maxAge', metadata.maxAge);
  if (metadata.maxCount !== undefined) out.maxCount = positiveInteger('maxCount', metadata.maxCount);
  if (metadata.custom !== undefined) {
    // JSON round trip: what is stored is exactly what a reader gets back, on either adapter.
    const custom = JSON.parse(JSON.stringify(metadata.custom)) as Record<string, unknown>;
    if (Object.keys(custom).length > 0) out.custom = custom;
  }
  return out;
}

function positiveInteger(field: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidParamError(`stream metadata ${field} must be a positive integer`, field);
  }
  return value;
}
