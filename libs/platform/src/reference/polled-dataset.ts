/**
 * Something served from the reference store's `current` pointers and kept
 * current by polling them (the gazetteer, the transit feeds, the road
 * network): `start` loads once and then polls every `pollMs` (0: never);
 * `reload` runs one load at a time, and a call during a load shares it.
 * `load` builds the new version beside the old and swaps it in; it answers
 * whether anything changed.
 */
export abstract class PolledDataset {
  private timer: NodeJS.Timeout | null = null;
  private reloading: Promise<boolean> | null = null;

  protected constructor(private readonly pollMs: number) {}

  async start(): Promise<void> {
    await this.reload();
    if (this.pollMs > 0) {
      this.timer = setInterval(() => void this.reload(), this.pollMs);
      this.timer.unref();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  reload(): Promise<boolean> {
    this.reloading ??= this.load().finally(() => {
      this.reloading = null;
    });
    return this.reloading;
  }

  protected abstract load(): Promise<boolean>;
}
