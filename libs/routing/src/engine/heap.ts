/**
 * A binary min-heap of (key, value) pairs in typed arrays, with duplicates
 * allowed: searches push a node again when its distance improves and skip the
 * stale entries when they come out (lazy deletion), which is faster in V8
 * than a decrease-key heap with a position index.
 */
export class MinHeap {
  private keys: Float64Array;
  private values: Int32Array;
  size = 0;

  constructor(capacity = 1024) {
    this.keys = new Float64Array(capacity);
    this.values = new Int32Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  get topKey(): number {
    return this.size === 0 ? Infinity : this.keys[0];
  }

  get topValue(): number {
    return this.values[0];
  }

  push(key: number, value: number): void {
    if (this.size === this.keys.length) {
      const keys = new Float64Array(this.size * 2);
      keys.set(this.keys);
      this.keys = keys;
      const values = new Int32Array(this.size * 2);
      values.set(this.values);
      this.values = values;
    }
    let i = this.size++;
    const keys = this.keys;
    const values = this.values;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] <= key) break;
      keys[i] = keys[parent];
      values[i] = values[parent];
      i = parent;
    }
    keys[i] = key;
    values[i] = value;
  }

  /** Removes the minimum; read `topKey`/`topValue` before. */
  pop(): void {
    const size = --this.size;
    if (size === 0) return;
    const keys = this.keys;
    const values = this.values;
    const key = keys[size];
    const value = values[size];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && keys[child + 1] < keys[child]) child++;
      if (keys[child] >= key) break;
      keys[i] = keys[child];
      values[i] = values[child];
      i = child;
    }
    keys[i] = key;
    values[i] = value;
  }
}
