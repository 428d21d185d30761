/**
 * One reporter is one reporter (issue 31, item 4; docs/adr/0034): a report
 * names every identity its sender has — the keyed hash of the client IP, and
 * the account of a valid key sent along — and reports that share any identity
 * are the same reporter, transitively. So one client reporting once without a
 * key and once with one counts once, as does one account from many networks
 * or many accounts from one network. Corroboration counts the groups
 * (connected components), whatever order the reports came in.
 */
export class ReporterGroups {
  private readonly parent = new Map<string, string>();
  private groups = 0;

  /** Distinct reporters so far. */
  get count(): number {
    return this.groups;
  }

  /** Adds one report's identities; true when none of them was seen before (a new reporter). */
  add(identities: readonly string[]): boolean {
    const roots = new Set<string>();
    for (const identity of identities) if (this.parent.has(identity)) roots.add(this.find(identity));
    for (const identity of identities) if (!this.parent.has(identity)) this.parent.set(identity, identity);
    if (identities.length === 0) return false;
    const [first, ...rest] = identities;
    const root = this.find(first);
    for (const identity of rest) {
      const other = this.find(identity);
      if (other !== root) this.parent.set(other, root);
    }
    if (roots.size === 0) {
      this.groups++;
      return true;
    }
    this.groups -= roots.size - 1;
    return false;
  }

  /** Whether any of these identities reported before. */
  knows(identities: readonly string[]): boolean {
    return identities.some((identity) => this.parent.has(identity));
  }

  /**
   * The name of the reporter an identity belongs to now (one of its
   * identities), undefined if never seen. It changes only when a report links
   * two reporters: the group of the report's first identity keeps its name.
   */
  groupOf(identity: string): string | undefined {
    return this.parent.has(identity) ? this.find(identity) : undefined;
  }

  private find(identity: string): string {
    let root = identity;
    while (this.parent.get(root) !== root) root = this.parent.get(root)!;
    // Path compression: the next look-up is one step.
    for (let node = identity; node !== root; ) {
      const next = this.parent.get(node)!;
      this.parent.set(node, root);
      node = next;
    }
    return root;
  }
}
