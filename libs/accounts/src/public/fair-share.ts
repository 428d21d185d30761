/**
 * Turns on the event loop shared by tenant while it is behind (issue 31,
 * item 3; docs/adr/0045).
 *
 * A closed-loop client keeps as many requests in flight as it has
 * connections, however cheap each is; with eight, one tenant's single pings
 * kept the loop ~90 % busy and every other caller's request queued behind
 * them. So while the loop is under pressure (`pressured()`), a tenant (an
 * account, or a key without one) may have at most `perTenant` requests in
 * flight in this process; the rest wait, in their order of arrival, before
 * their body is read, and go in as that tenant's own requests answer. Other
 * tenants are not held by them. When the loop is not behind, nobody waits.
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
}

interface Tenant {
  inFlight: number;
  waiting: Waiter[];
}

export class FairShare {
  private readonly tenants = new Map<string, Tenant>();

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
    const waiter: Waiter = { admit, state: 'waiting' };
    if (tenant.waiting.length === 0 && (tenant.inFlight < this.options.perTenant || !this.options.pressured())) {
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
        this.admitWaiting(tenant);
      }
      this.forgetIfIdle(tenantId, tenant);
    };
    return { admitted, leave };
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

  private admitWaiting(tenant: Tenant): void {
    while (tenant.waiting.length > 0 && (tenant.inFlight < this.options.perTenant || !this.options.pressured())) {
      this.goIn(tenant, tenant.waiting.shift()!);
    }
  }

  private forgetIfIdle(tenantId: string, tenant: Tenant): void {
    if (tenant.inFlight === 0 && tenant.waiting.length === 0) this.tenants.delete(tenantId);
  }
}
