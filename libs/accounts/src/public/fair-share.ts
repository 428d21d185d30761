/**
 * Turns on the event loop shared by tenant while it is behind or saturated (issue 31,
 * item 3; docs/adr/0045).
 *
 * A closed-loop client keeps as many requests in flight as it has
 * connections, however cheap each is; with eight, one tenant's single pings
 * kept the loop ~90 % busy and every other caller's request queued behind
 * them. So while the loop is under pressure (`pressured()`), a tenant (an
 * account, or a key without one) may have at most `perTenant` requests in
 * flight in this process; the rest wait, in their order of arrival, before
 * their body is read, and go in as that tenant's own requests answer. Other
 * tenants are not held by them. When the loop is neither behind nor
 * saturated while shared (below), nobody waits.
 *
 * Headroom (docs/adr/0052): a limit on requests in flight does not limit a
 * tenant's share of the loop. Two in flight at a time, the same pings kept
 * the loop ~93 % busy, so another tenant's request still arrived at a busy
 * loop and waited for it. So the requests a tenant has waiting go in only
 * while the loop's smoothed utilization is below FAIR_SHARE_LOOP_PERCENT
 * (`headroom.saturated`): one as one of the tenant's own requests answers,
 * and one at each tick of the loop (`release`). A tenant within its share
 * (nothing waiting) is never held by it, and neither is a tenant alone: the
 * headroom is kept only while another caller (another tenant, or any request
 * without a key) has arrived in the last `OTHERS_WINDOW_MS` (`arrived`). A
 * tenant with requests waiting and none in flight still gets one in after
 * `headroom.maxHoldMs`, whoever keeps the loop busy. While the loop is
 * saturated and shared, the in-flight limit holds as if it were behind: a
 * loop filled by one tenant's many requests need not run late to be full.
 *
 * A tenant with `maxWaiting` requests already waiting is refused the next
 * (429 with Retry-After). A waiting request whose client goes away leaves
 * the queue.
 */
export interface FairShareOptions {
  /** Requests in flight per tenant while the loop is behind (FAIR_SHARE_PER_TENANT). */
  perTenant: number;
  /** Requests one tenant may have waiting; beyond it, refused. */
  maxWaiting: number;
  pressured: () => boolean;
  /**
   * A backlogged tenant's next request waits while the loop is saturated (its smoothed utilization at or above
   * FAIR_SHARE_LOOP_PERCENT); after `maxHoldMs` with nothing in flight, one goes in anyway. Absent: no headroom kept.
   */
  headroom?: { saturated: () => boolean; maxHoldMs: number; now?: () => number };
}

export type Admission = 'admitted' | 'full' | 'gone';

/** One request's place: `admitted` settles once it may go in (or cannot); `leave` ends it, answered or gone. */
export interface Turn {
  readonly admitted: Promise<Admission>;
  leave(): void;
}

interface Waiter {
  admit(outcome: Admission): void;
  state: 'waiting' | 'in' | 'left';
  /** When it started waiting (the headroom's clock). */
  since: number;
}

interface Tenant {
  inFlight: number;
  waiting: Waiter[];
}

export class FairShare {
  private readonly tenants = new Map<string, Tenant>();
  /** The latest caller to arrive, and the latest before it that was someone else (for `othersPresent`). */
  private latest: { id: string; at: number } | undefined;
  private latestOther: { id: string; at: number } | undefined;

  constructor(private readonly options: FairShareOptions) {
    if (!(options.perTenant >= 1)) throw new RangeError(`FairShare needs at least one request per tenant, got ${options.perTenant}`);
  }

  /** Requests one tenant may have waiting (the refusal says it). */
  get maxWaiting(): number {
    return this.options.maxWaiting;
  }

  enter(tenantId: string): Turn {
    const tenant = this.tenants.get(tenantId) ?? { inFlight: 0, waiting: [] };
    this.tenants.set(tenantId, tenant);
    let admit!: (outcome: Admission) => void;
    const admitted = new Promise<Admission>((resolve) => {
      admit = resolve;
    });
    const waiter: Waiter = { admit, state: 'waiting', since: this.now() };
    if (tenant.waiting.length === 0 && this.hasSlot(tenantId, tenant)) {
      this.goIn(tenant, waiter);
    } else if (tenant.waiting.length >= this.options.maxWaiting) {
      waiter.state = 'left';
      admit('full');
      this.forgetIfIdle(tenantId, tenant);
    } else {
      tenant.waiting.push(waiter);
    }
    const leave = () => {
      if (waiter.state === 'left') return;
      const was = waiter.state;
      waiter.state = 'left';
      if (was === 'waiting') {
        tenant.waiting.splice(tenant.waiting.indexOf(waiter), 1);
        admit('gone');
      } else {
        tenant.inFlight -= 1;
        this.admitWaiting(tenantId, tenant);
      }
      this.forgetIfIdle(tenantId, tenant);
    };
    return { admitted, leave };
  }

  /** A request of `callerId` (a tenant, or PUBLIC_CALLER for one without a key) has arrived: who shares the loop. */
  arrived(callerId: string): void {
    const at = this.now();
    if (this.latest !== undefined && this.latest.id !== callerId) this.latestOther = this.latest;
    if (this.latest?.id === callerId) this.latest.at = at;
    else this.latest = { id: callerId, at };
  }

  /** Requests of `tenantId` in flight and waiting (metrics, tests). */
  of(tenantId: string): { inFlight: number; waiting: number } {
    const tenant = this.tenants.get(tenantId);
    return { inFlight: tenant?.inFlight ?? 0, waiting: tenant?.waiting.length ?? 0 };
  }

  private goIn(tenant: Tenant, waiter: Waiter): void {
    waiter.state = 'in';
    tenant.inFlight += 1;
    waiter.admit('admitted');
  }

  /**
   * At a tick of the loop (LoopLag.onTick): each tenant with requests waiting sends one more in if it has a slot
   * and the loop has headroom, or if it has nothing in flight and its first has waited `maxHoldMs`.
   */
  release(): void {
    const headroom = this.options.headroom;
    if (!headroom) return;
    const saturated = headroom.saturated();
    const now = this.now();
    for (const [tenantId, tenant] of this.tenants) {
      if (tenant.waiting.length === 0 || !this.hasSlot(tenantId, tenant)) continue;
      const overdue = tenant.inFlight === 0 && now - tenant.waiting[0].since >= headroom.maxHoldMs;
      if (!saturated || overdue || !this.othersPresent(tenantId, now)) this.goIn(tenant, tenant.waiting.shift()!);
    }
  }

  /** As one of the tenant's requests answers: its waiting ones go in (with headroom kept, one at most, and only if the loop has it). */
  private admitWaiting(tenantId: string, tenant: Tenant): void {
    const most = this.options.headroom ? 1 : Infinity;
    const held = () => this.saturated() && this.othersPresent(tenantId, this.now());
    for (let admitted = 0; admitted < most && tenant.waiting.length > 0 && this.hasSlot(tenantId, tenant) && !held(); admitted++) {
      this.goIn(tenant, tenant.waiting.shift()!);
    }
  }

  /**
   * Under the in-flight limit, or the loop neither behind nor saturated while others use it: a loop kept busy by
   * one tenant's many requests need not run late to be full (the 32-key bulk, ADR 0052).
   */
  private hasSlot(tenantId: string, tenant: Tenant): boolean {
    if (tenant.inFlight < this.options.perTenant) return true;
    return !this.options.pressured() && !(this.saturated() && this.othersPresent(tenantId, this.now()));
  }

  /** Whether two callers or more arrived within OTHERS_WINDOW_MS: someone's heavy work shares the loop with someone else. */
  shared(): boolean {
    return this.latestOther !== undefined && this.now() - this.latestOther.at < OTHERS_WINDOW_MS;
  }

  /** Whether a caller other than `tenantId` arrived within OTHERS_WINDOW_MS. */
  private othersPresent(tenantId: string, now: number): boolean {
    const other = this.latest?.id !== tenantId ? this.latest : this.latestOther;
    return other !== undefined && now - other.at < OTHERS_WINDOW_MS;
  }

  private saturated(): boolean {
    return this.options.headroom?.saturated() ?? false;
  }

  private now(): number {
    return this.options.headroom?.now?.() ?? performance.now();
  }

  private forgetIfIdle(tenantId: string, tenant: Tenant): void {
    if (tenant.inFlight === 0 && tenant.waiting.length === 0) this.tenants.delete(tenantId);
  }
}

/** The caller id `arrived` takes for a request without a key (health checks, public endpoints). */
export const PUBLIC_CALLER = '#public';
/** The caller id `arrived` takes for the operator's key. */
export const OPERATOR_CALLER = '#operator';

/** How recently another caller must have arrived for a tenant's backlog to be held for headroom (ADR 0052). */
export const OTHERS_WINDOW_MS = 1000;

/** How long a backlogged tenant with nothing in flight waits at most for headroom (ADR 0052): at least four requests a second. */
export const HEADROOM_MAX_HOLD_MS = 250;

/** The headroom FAIR_SHARE_LOOP_PERCENT keeps on a loop whose utilization `lag` measures; none at 100 %. */
export function loopHeadroom(lag: { readonly utilization: number }, loopPercent: number): FairShareOptions['headroom'] {
  if (loopPercent >= 100) return undefined;
  return { saturated: () => lag.utilization * 100 >= loopPercent, maxHoldMs: HEADROOM_MAX_HOLD_MS };
}
