import type { DataKey } from './data-keys/index.js';
import { SecretBox } from './secret-box.js';

/** Boxes kept, one per data key; past this the cache starts over (a key's box is rebuilt in microseconds). */
const BOX_CACHE_LIMIT = 10_000;

/**
 * The one sealed-fields codec (ADR 12, ADR 20): an event is stored as the
 * fields a reader needs without the key (ids, times, the key id) in the clear
 * and every other field of its data as one `sealed` string, AES-256-GCM
 * (SecretBox, format `v1.<kid>.<iv>.<tag>.<ciphertext>`) under the data
 * subject's own key from the DataKeyVault, bound by its associated data to
 * the stream and event type (`<stream>|<type>`, `SealedFields.context`).
 * Destroying the key makes every copy unreadable. Monitoring's location
 * streams and locator's check-ins both seal through it; what stays clear is
 * each context's own decision.
 *
 * The sealed value is `JSON.stringify` of the sealed fields in the order the
 * event's data lists them, so events stored before this codec existed open
 * unchanged. Keeps one SecretBox per data key (the AES key schedule and the
 * kid hash), the sealing cache both contexts used to keep.
 */
export class SealedFields {
  private readonly boxes = new Map<string, SecretBox>();

  /** The associated data of a stored event: its stream and type. */
  static context(stream: string, type: string): string {
    return `${stream}|${type}`;
  }

  /**
   * The stored form of `data`: `into` (the caller's envelope fields, first in
   * the stored object) plus each field `keepClear` names, and `sealed`.
   */
  seal(key: DataKey, context: string, data: Readonly<Record<string, unknown>>, keepClear: (field: string) => boolean, into: Record<string, unknown> = {}): Record<string, unknown> {
    const stored: Record<string, unknown> = { ...into };
    const secret: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(data)) {
      if (keepClear(field)) stored[field] = value;
      else secret[field] = value;
    }
    stored.sealed = this.sealValue(key, context, secret);
    return stored;
  }

  /** The data as it was before `seal`: the clear fields but the `envelope` ones (`sealed`, the key id, ...), then the opened ones. */
  open(key: DataKey, context: string, stored: Readonly<Record<string, unknown>>, envelope: readonly string[]): Record<string, unknown> {
    const opened = this.openValue<Record<string, unknown>>(key, context, String(stored.sealed));
    // Field by field, as `{...clear, ...opened}` would merge them: spreading was several times the cost of the merge
    // itself, on reads that open thousands of events (a KYC verification's month of pings: issue 49).
    const data: Record<string, unknown> = {};
    for (const field of Object.keys(stored)) if (field !== 'sealed' && !envelope.includes(field)) own(data, field, stored[field]);
    if (opened !== null) for (const field of Object.keys(opened)) own(data, field, opened[field]);
    return data;
  }

  /** Seals any JSON value (a snapshot) under the key. */
  sealValue(key: DataKey, context: string, value: unknown): string {
    return this.box(key).seal(JSON.stringify(value), context);
  }

  /** Throws SealedSecretError when the value was altered or sealed under another key or context. */
  openValue<T>(key: DataKey, context: string, sealed: string): T {
    return JSON.parse(this.box(key).open(sealed, context)) as T;
  }

  private box(key: DataKey): SecretBox {
    let box = this.boxes.get(key.id);
    if (!box) {
      if (this.boxes.size > BOX_CACHE_LIMIT) this.boxes.clear();
      box = SecretBox.fromKey(key.key);
      this.boxes.set(key.id, box);
    }
    return box;
  }
}

/** Sets an own data property as a spread does: a field named `__proto__` stays a field, not the prototype. */
function own(target: Record<string, unknown>, field: string, value: unknown): void {
  if (field === '__proto__') Object.defineProperty(target, field, { value, writable: true, enumerable: true, configurable: true });
  else target[field] = value;
}
