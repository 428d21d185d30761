import type { ReadModels } from '../commands/read-models.js';
import type { HealthCheck } from '../health/readiness.js';
import type { FollowerGate } from './lease-keeper.js';
import type { FollowerStatus, LogFollower } from './log-follower.js';

/**
 * Every log follower of the process, for start-up order, shutdown, and the
 * health signal: /health answers 503 naming a follower that keeps failing
 * (stuck), since its read model, view or outbound stream has stopped moving.
 */
export class Followers {
  private readonly all: LogFollower[] = [];
  private readonly keeping = new Map<string, LogFollower>();

  /**
   * `gate`: among several workers, the followers lease (docs/production.md):
   * every follower added that writes from a checkpoint runs only while this
   * process holds it. Absent: this process is the only one that runs them.
   */
  constructor(readonly gate?: FollowerGate) {}

  /** `readModel`: the projection or view the follower keeps (what the manifests declare; the wiring check compares). */
  add(follower: LogFollower, readModel?: string): LogFollower {
    if (this.all.some((existing) => existing.name === follower.name)) throw new Error(`follower ${follower.name} declared twice`);
    if (readModel !== undefined && this.keeping.has(readModel)) throw new Error(`read model ${readModel} is kept by two followers`);
    this.all.push(follower);
    if (this.gate) follower.gateWith(this.gate);
    if (readModel !== undefined) this.keeping.set(readModel, follower);
    return follower;
  }

  /** The read models (projections and views) this process keeps current. */
  readModels(): string[] {
    return [...this.keeping.keys()];
  }

  /**
   * Each follower's position and the streams it follows (the lag metric measures it against their newest event);
   * a gated follower only while this process holds the lease (a standby worker's would read as the whole log behind).
   */
  positions(): Array<{ name: string; position: bigint; streamPrefixes: readonly string[] }> {
    return this.all.filter((follower) => !follower.gated || this.gate!.held()).map((follower) => ({ name: follower.name, position: follower.position, streamPrefixes: follower.spec.streamPrefixes }));
  }

  statuses(): FollowerStatus[] {
    return this.all.map((follower) => follower.status());
  }

  healthCheck(): HealthCheck {
    return {
      name: 'followers',
      ping: async () => {
        const stuck = this.statuses().filter((status) => status.stuck);
        if (stuck.length > 0) throw new Error(`stuck: ${stuck.map((status) => `${status.name} (${status.last_error})`).join('; ')}`);
      },
    };
  }
}

/** An in-memory view kept current by a LogFollower: registered as a read model commands can wait for, and as a follower. */
export interface FollowedView {
  readonly follower: LogFollower;
}

export function registerView<View extends FollowedView>(view: View, readModel: string, readModels: ReadModels, followers: Followers): View {
  readModels.register(readModel, view.follower);
  followers.add(view.follower, readModel);
  return view;
}
