import { getResolution, h3IndexToSplitLong, latLngToCell } from 'h3-js';
import { CellTable } from '../cell-table.js';
import { coverShape, coverSteps, type FenceCover } from '../domain/cover.js';
import { shapeOf, type FenceType, type GeofenceDefinition } from '../domain/geofence.js';
import type { Shape } from '../domain/geometry.js';

export interface FenceHit {
  fence_id: string;
  fence_type: FenceType;
  customer_id: string | null;
  loan_id: string | null;
}

export interface CoverSummary {
  h3_resolution: number;
  cell_count: number;
}

/** What the index keeps of a fence: the hit it answers, the exact shape, and its cells (to remove them). */
class IndexedFence {
  /** The two entries every cell of this fence points at. */
  readonly insideEntry: CellEntry = { fence: this, inside: true };
  readonly boundaryEntry: CellEntry = { fence: this, inside: false };

  constructor(
    readonly hit: FenceHit,
    readonly shape: Shape,
    readonly keys: Float64Array,
    readonly resolutions: Uint8Array,
    readonly summary: CoverSummary,
  ) {}
}

interface CellEntry {
  readonly fence: IndexedFence;
  /** The whole cell lies inside the fence: no exact test needed. */
  readonly inside: boolean;
}

/** Most cells belong to one fence: the entry itself, an array only where fences share a cell. */
type Slot = CellEntry | CellEntry[];

class AccountFences {
  readonly fences = new Map<string, IndexedFence>();
  /** Every cell of every resolution, keyed by `cellKey`. */
  readonly cells = new CellTable<Slot>();
  /** Cells per resolution, and the resolutions that have any, ascending. */
  readonly perResolution = new Uint32Array(16);
  resolutions: number[] = [];
}

const TWO_POW_32 = 2 ** 32;
/** 8^k for k = 0…15: a cell's 15 digits are 3 bits each. */
const POW8 = Array.from({ length: 16 }, (_, k) => 8 ** k);

/**
 * A cell as a number, unique within its resolution: the base cell and the
 * first `res` digits (at most 7 + 45 bits, exact in a double). Cutting a
 * cell's digits short gives its logical ancestor, so a ping's ancestors at
 * every resolution come from one `latLngToCell` call and arithmetic.
 */
function keyAt(lower: number, upper: number, res: number): number {
  const baseCell = (upper >>> 13) & 0x7f;
  const digits = (upper & 0x1fff) * TWO_POW_32 + (lower >>> 0);
  return baseCell * POW8[res] + Math.floor(digits / POW8[15 - res]);
}

/** The table's two halves of (resolution, key): the key's top 20 bits with the resolution above them, and its low 32 bits. */
function highHalf(key: number, res: number): number {
  return (Math.floor(key / TWO_POW_32) | (res << 20)) >>> 0;
}

/**
 * The geofences of every account, in memory, for `geofence_breach` on ping
 * ingestion. Each fence is held under an H3 cover (domain/cover.ts); a ping
 * computes its resolution-15 cell once, looks its ancestor up at each
 * resolution some fence of the account uses (at most 16 map lookups), and
 * runs the exact test only on the fences found in boundary cells. The work
 * per ping depends on how many fences lie near the point, not on how many
 * fences exist. Accounts never see each other's fences.
 *
 * Kept current by `GeofenceFeed` (log subscription); tests and benchmarks fill it directly.
 */
type IndexedDefinition = Pick<GeofenceDefinition, 'account_id' | 'fence_id' | 'fence_type' | 'customer_id' | 'loan_id' | 'center' | 'radius_m' | 'polygon'>;

export class FenceIndex {
  private readonly accounts = new Map<string, AccountFences>();
  private total = 0;

  /** Fences of this account that contain the point and apply to this customer (fences with this customer_id, and account-wide fences without one). Synchronous, in memory. */
  fencesContaining(accountId: string, customerId: string, lat: number, lng: number): FenceHit[] {
    const account = this.accounts.get(accountId);
    if (!account || account.resolutions.length === 0) return [];
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return [];
    const [lower, upper] = h3IndexToSplitLong(latLngToCell(lat, lng, 15));
    const hits: FenceHit[] = [];
    for (const res of account.resolutions) {
      const key = keyAt(lower, upper, res);
      const slot = account.cells.get(highHalf(key, res), key >>> 0);
      if (slot === undefined) continue;
      if (Array.isArray(slot)) {
        for (const entry of slot) if (matches(entry, customerId, lat, lng)) hits.push(entry.fence.hit);
      } else if (matches(slot, customerId, lat, lng)) {
        hits.push(slot.fence.hit);
      }
    }
    return hits;
  }

  /** Adds (or replaces) a fence; answers its cover. Idempotent, so a replayed event changes nothing. */
  add(fence: IndexedDefinition): CoverSummary {
    const shape = shapeOf(fence);
    return this.addCovered(fence, shape, coverShape(shape));
  }

  /** As `add`, the cover computed with turns of the event loop between its steps (the geofence view; docs/adr/0042). */
  async addSliced(fence: IndexedDefinition): Promise<CoverSummary> {
    const shape = shapeOf(fence);
    const steps = coverSteps(shape);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return this.addCovered(fence, shape, step.value);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private addCovered(fence: IndexedDefinition, shape: ReturnType<typeof shapeOf>, cover: FenceCover): CoverSummary {
    this.remove(fence.account_id, fence.fence_id);
    const cells = [...cover.inside, ...cover.boundary];
    const keys = new Float64Array(cells.length);
    const resolutions = new Uint8Array(cells.length);
    cells.forEach((cell, i) => {
      const res = getResolution(cell);
      const [lower, upper] = h3IndexToSplitLong(cell);
      keys[i] = keyAt(lower, upper, res);
      resolutions[i] = res;
    });
    const hit: FenceHit = Object.freeze({ fence_id: fence.fence_id, fence_type: fence.fence_type, customer_id: fence.customer_id, loan_id: fence.loan_id });
    const indexed = new IndexedFence(hit, shape, keys, resolutions, Object.freeze({ h3_resolution: cover.resolution, cell_count: cells.length }));

    const account = this.accountOf(fence.account_id);
    account.fences.set(fence.fence_id, indexed);
    this.total++;
    const insideCount = cover.inside.length;
    for (let i = 0; i < keys.length; i++) {
      const res = resolutions[i];
      const hi = highHalf(keys[i], res);
      const lo = keys[i] >>> 0;
      const entry = i < insideCount ? indexed.insideEntry : indexed.boundaryEntry;
      const slot = account.cells.get(hi, lo);
      if (slot === undefined) {
        account.cells.set(hi, lo, entry);
        if (account.perResolution[res]++ === 0) account.resolutions = [...account.resolutions, res].sort((a, b) => a - b);
      } else if (Array.isArray(slot)) {
        slot.push(entry);
      } else {
        account.cells.set(hi, lo, [slot, entry]);
      }
    }
    return indexed.summary;
  }

  remove(accountId: string, fenceId: string): boolean {
    const account = this.accounts.get(accountId);
    const fence: IndexedFence | undefined = account?.fences.get(fenceId);
    if (!account || !fence) return false;
    account.fences.delete(fenceId);
    this.total--;
    for (let i = 0; i < fence.keys.length; i++) {
      const res = fence.resolutions[i];
      const hi = highHalf(fence.keys[i], res);
      const lo = fence.keys[i] >>> 0;
      const slot: Slot | undefined = account.cells.get(hi, lo);
      if (slot === undefined) continue;
      const rest = Array.isArray(slot) ? slot.filter((entry) => entry.fence !== fence) : slot.fence === fence ? [] : [slot];
      if (rest.length > 0) {
        account.cells.set(hi, lo, rest.length === 1 ? rest[0] : rest);
        continue;
      }
      account.cells.delete(hi, lo);
      if (--account.perResolution[res] === 0) account.resolutions = account.resolutions.filter((r) => r !== res);
    }
    if (account.fences.size === 0) this.accounts.delete(accountId);
    return true;
  }

  /** The cover of an indexed fence, or undefined when this index does not hold it. */
  summaryOf(accountId: string, fenceId: string): CoverSummary | undefined {
    return this.accounts.get(accountId)?.fences.get(fenceId)?.summary;
  }

  countFor(accountId: string): number {
    return this.accounts.get(accountId)?.fences.size ?? 0;
  }

  get size(): number {
    return this.total;
  }

  private accountOf(accountId: string): AccountFences {
    let account = this.accounts.get(accountId);
    if (!account) {
      account = new AccountFences();
      this.accounts.set(accountId, account);
    }
    return account;
  }
}

function matches(entry: CellEntry, customerId: string, lat: number, lng: number): boolean {
  const owner = entry.fence.hit.customer_id;
  if (owner !== null && owner !== customerId) return false;
  return entry.inside || entry.fence.shape.contains(lat, lng);
}
