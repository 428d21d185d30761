/**
 * Via-way turn restrictions of one mode as forbidden sequences of directed
 * edges (a directed edge is `2 * edge + dir`), matched as the search extends a
 * path one edge at a time: an Aho–Corasick automaton whose state is the
 * longest suffix of the path so far that is a restriction in progress (the
 * root: none). Its state is all a search must remember to obey every sequence
 * exactly, so the edge-based search keeps one label per (edge, state) — the
 * via edge entered from a restriction's `from` edge and the same edge entered
 * from elsewhere are two labels, and the cheaper legal path through either is
 * found (docs/adr/0018, "Via-way restrictions"). OSRM's restriction graph is
 * the same trie, expanded into the edge-based graph at preparation; here it
 * stays small and is walked at query time, so node and edge ids never change.
 */
export class TurnSequences {
  /** The directed edge a state ends on (the root: -1). */
  readonly symbol: Int32Array;
  private readonly children = new Map<number, number>();
  private readonly fail: Int32Array;
  /** 1 when the path just matched a whole sequence (the state itself or a suffix of it). */
  private readonly complete: Uint8Array;

  private constructor(sequences: number[][]) {
    const symbol: number[] = [-1];
    const complete: number[] = [0];
    for (const sequence of sequences) {
      let state = 0;
      for (const directedEdge of sequence) {
        const key = this.key(state, directedEdge);
        let next = this.children.get(key);
        if (next === undefined) {
          next = symbol.length;
          symbol.push(directedEdge);
          complete.push(0);
          this.children.set(key, next);
        }
        state = next;
      }
      complete[state] = 1;
    }
    this.symbol = Int32Array.from(symbol);
    this.complete = Uint8Array.from(complete);
    this.fail = new Int32Array(symbol.length);
    // Failure links breadth first: a state's is the longest proper suffix of its sequence that is also a state.
    const childrenOf = new Map<number, number[]>();
    for (const [key, child] of this.children) {
      const parent = Math.floor(key / KEY_BASE);
      childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), child]);
    }
    const queue = [...(childrenOf.get(0) ?? [])];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      for (const child of childrenOf.get(state) ?? []) {
        const edge = this.symbol[child];
        let f = this.fail[state];
        while (f !== 0 && !this.children.has(this.key(f, edge))) f = this.fail[f];
        const target = this.children.get(this.key(f, edge));
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        if (this.complete[this.fail[child]]) this.complete[child] = 1;
        queue.push(child);
      }
    }
  }

  /** The automaton of the sequences binding the mode of index `modeIndex`; null when none does. */
  static of(offsets: Int32Array, edges: Int32Array, modes: Uint8Array, modeIndex: number): TurnSequences | null {
    const sequences: number[][] = [];
    for (let i = 0; i < modes.length; i++) {
      if ((modes[i] & (1 << modeIndex)) !== 0) sequences.push(Array.from(edges.subarray(offsets[i], offsets[i + 1])));
    }
    return sequences.length === 0 ? null : new TurnSequences(sequences);
  }

  /** States, the root included. */
  get size(): number {
    return this.symbol.length;
  }

  /** The state after travelling `directedEdge` from `state`; -1 when that completes a forbidden sequence. */
  step(state: number, directedEdge: number): number {
    let at = state;
    for (;;) {
      const next = this.children.get(this.key(at, directedEdge));
      if (next !== undefined) return this.complete[next] ? -1 : next;
      if (at === 0) return 0;
      at = this.fail[at];
    }
  }

  /** Whether a path (directed edges in order) contains a forbidden sequence. */
  violatedBy(directedEdges: Iterable<number>): boolean {
    let state = 0;
    for (const directedEdge of directedEdges) {
      state = this.step(state, directedEdge);
      if (state < 0) return true;
    }
    return false;
  }

  private key(state: number, directedEdge: number): number {
    return state * KEY_BASE + directedEdge;
  }
}

/** Directed edge ids stay under 2^31; states × 2^31 stays an exact double below 2^53. */
const KEY_BASE = 2 ** 31;
