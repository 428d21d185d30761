import { FairShare, loopHeadroom, PUBLIC_CALLER, type Admission, type Turn } from './fair-share.js';

/** Settles pending promise callbacks (admissions resolve in microtasks). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function recorder(turn: Turn): { outcome: Admission | undefined } {
  const seen: { outcome: Admission | undefined } = { outcome: undefined };
  void turn.admitted.then((outcome) => {
    seen.outcome = outcome;
  });
  return seen;
}

describe('FairShare: turns on the loop by tenant while it is behind', () => {
  let pressured = true;
  const share = (perTenant = 2, maxWaiting = 3) => new FairShare({ perTenant, maxWaiting, pressured: () => pressured });

  beforeEach(() => {
    pressured = true;
  });

  it('lets a tenant have perTenant requests in flight under pressure, and its next wait in order of arrival', async () => {
    const fair = share();
    const turns = Array.from({ length: 4 }, () => fair.enter('acct_a'));
    const seen = turns.map(recorder);
    await settle();
    expect(seen.map((s) => s.outcome)).toEqual(['admitted', 'admitted', undefined, undefined]);
    expect(fair.of('acct_a')).toEqual({ inFlight: 2, waiting: 2 });

    turns[1].leave();
    await settle();
    expect(seen.map((s) => s.outcome)).toEqual(['admitted', 'admitted', 'admitted', undefined]);
    turns[0].leave();
    await settle();
    expect(seen[3].outcome).toBe('admitted');
    expect(fair.of('acct_a')).toEqual({ inFlight: 2, waiting: 0 });
  });

  it('does not hold one tenant behind another', async () => {
    const fair = share(1);
    const a = [fair.enter('acct_a'), fair.enter('acct_a')].map(recorder);
    const b = recorder(fair.enter('acct_b'));
    await settle();
    expect(a.map((s) => s.outcome)).toEqual(['admitted', undefined]);
    expect(b.outcome).toBe('admitted');
  });

  it('holds nobody while the loop is not behind', async () => {
    pressured = false;
    const fair = share(1);
    const seen = Array.from({ length: 5 }, () => recorder(fair.enter('acct_a')));
    await settle();
    expect(seen.every((s) => s.outcome === 'admitted')).toBe(true);
    expect(fair.of('acct_a')).toEqual({ inFlight: 5, waiting: 0 });
  });

  it('lets every waiting request in at the next answer once the pressure is gone', async () => {
    const fair = share(1);
    const turns = Array.from({ length: 3 }, () => fair.enter('acct_a'));
    const seen = turns.map(recorder);
    await settle();
    expect(seen.map((s) => s.outcome)).toEqual(['admitted', undefined, undefined]);
    pressured = false;
    turns[0].leave();
    await settle();
    expect(seen.map((s) => s.outcome)).toEqual(['admitted', 'admitted', 'admitted']);
  });

  it('keeps arrival order: a new request does not pass the waiting ones when a slot is free', async () => {
    const fair = share(1);
    const first = fair.enter('acct_a');
    const waiting = recorder(fair.enter('acct_a'));
    pressured = false;
    // Not under pressure any more, but one is already waiting: the newcomer queues behind it.
    const newcomer = recorder(fair.enter('acct_a'));
    await settle();
    expect([waiting.outcome, newcomer.outcome]).toEqual([undefined, undefined]);
    first.leave();
    await settle();
    expect([waiting.outcome, newcomer.outcome]).toEqual(['admitted', 'admitted']);
  });

  it('refuses a request when maxWaiting of its tenant already wait', async () => {
    const fair = share(1, 2);
    const seen = Array.from({ length: 4 }, () => recorder(fair.enter('acct_a')));
    await settle();
    expect(seen.map((s) => s.outcome)).toEqual(['admitted', undefined, undefined, 'full']);
    expect(fair.of('acct_a')).toEqual({ inFlight: 1, waiting: 2 });
  });

  it('takes a request whose client left out of the queue, and a second leave changes nothing', async () => {
    const fair = share(1);
    const first = fair.enter('acct_a');
    const gone = fair.enter('acct_a');
    const goneSeen = recorder(gone);
    const next = recorder(fair.enter('acct_a'));
    gone.leave();
    gone.leave();
    await settle();
    expect(goneSeen.outcome).toBe('gone');
    expect(fair.of('acct_a')).toEqual({ inFlight: 1, waiting: 1 });
    first.leave();
    first.leave();
    await settle();
    expect(next.outcome).toBe('admitted');
    expect(fair.of('acct_a')).toEqual({ inFlight: 1, waiting: 0 });
  });

  it('forgets a tenant with nothing in flight or waiting', async () => {
    const fair = share();
    const turn = fair.enter('acct_a');
    await turn.admitted;
    turn.leave();
    expect(fair.of('acct_a')).toEqual({ inFlight: 0, waiting: 0 });
    expect((fair as unknown as { tenants: Map<string, unknown> }).tenants.size).toBe(0);
  });

  it('needs at least one request per tenant', () => {
    expect(() => new FairShare({ perTenant: 0, maxWaiting: 1, pressured: () => true })).toThrow(RangeError);
  });

  describe('headroom: a backlog goes in only while the loop is not saturated (ADR 0052)', () => {
    let saturated = true;
    let now = 0;
    const paced = (perTenant = 2) =>
      new FairShare({ perTenant, maxWaiting: 10, pressured: () => pressured, headroom: { saturated: () => saturated, maxHoldMs: 250, now: () => now } });

    beforeEach(() => {
      saturated = true;
      now = 0;
    });

    it('holds the waiting requests of a tenant while the loop is saturated and someone else uses it, then lets one in per tick', async () => {
      const fair = paced(1);
      const turns = Array.from({ length: 3 }, () => fair.enter('acct_a'));
      const seen = turns.map(recorder);
      fair.arrived(PUBLIC_CALLER);
      turns[0].leave();
      fair.release();
      await settle();
      expect(seen.map((s) => s.outcome)).toEqual(['admitted', undefined, undefined]);
      expect(fair.of('acct_a')).toEqual({ inFlight: 0, waiting: 2 });

      saturated = false;
      fair.release();
      await settle();
      expect(seen.map((s) => s.outcome)).toEqual(['admitted', 'admitted', undefined]);
      // The in-flight limit still holds while the loop is behind.
      fair.release();
      await settle();
      expect(seen[2].outcome).toBeUndefined();
    });

    it('lets one waiting request in as one answers, not the whole queue, once the pressure is gone', async () => {
      const fair = paced(1);
      const turns = Array.from({ length: 4 }, () => fair.enter('acct_a'));
      const seen = turns.map(recorder);
      saturated = false;
      pressured = false;
      turns[0].leave();
      await settle();
      expect(seen.map((s) => s.outcome)).toEqual(['admitted', 'admitted', undefined, undefined]);
      fair.release();
      await settle();
      expect(seen[2].outcome).toBe('admitted');
    });

    it('never holds a tenant within its share, saturated or not', async () => {
      const fair = paced(2);
      fair.arrived('acct_b');
      const seen = [recorder(fair.enter('acct_a')), recorder(fair.enter('acct_a'))];
      await settle();
      expect(seen.map((s) => s.outcome)).toEqual(['admitted', 'admitted']);
    });

    it('does not hold a tenant that has the loop to itself', async () => {
      const fair = paced(1);
      fair.arrived('acct_a');
      const turns = [fair.enter('acct_a'), fair.enter('acct_a')];
      const seen = turns.map(recorder);
      turns[0].leave();
      await settle();
      expect(seen[1].outcome).toBe('admitted');
    });

    it('holds for others only while they arrived within the window', async () => {
      const fair = paced(1);
      fair.arrived('acct_b');
      fair.arrived('acct_a');
      const turns = [fair.enter('acct_a'), fair.enter('acct_a')];
      const seen = turns.map(recorder);
      turns[0].leave();
      await settle();
      expect(seen[1].outcome).toBeUndefined();
      now = 1000;
      fair.release();
      await settle();
      expect(seen[1].outcome).toBe('admitted');
    });

    it('lets a held tenant with nothing in flight have one request after maxHoldMs, whoever keeps the loop busy', async () => {
      const fair = paced(1);
      const turns = [fair.enter('acct_a'), fair.enter('acct_a'), fair.enter('acct_a')];
      const seen = turns.map(recorder);
      now = 100;
      fair.arrived('acct_b');
      turns[0].leave();
      fair.release();
      await settle();
      expect(seen.map((s) => s.outcome)).toEqual(['admitted', undefined, undefined]);
      now = 250;
      fair.arrived('acct_b');
      fair.release();
      await settle();
      expect(seen.map((s) => s.outcome)).toEqual(['admitted', 'admitted', undefined]);
      // One is in flight again: the next waits for headroom or its own answer.
      now = 600;
      fair.arrived('acct_b');
      fair.release();
      await settle();
      expect(seen[2].outcome).toBeUndefined();
    });

    it('limits a tenant to its share in flight while the loop is saturated and shared, even when it is not behind', async () => {
      pressured = false;
      const fair = paced(2);
      fair.arrived(PUBLIC_CALLER);
      const seen = Array.from({ length: 3 }, () => recorder(fair.enter('acct_a')));
      await settle();
      expect(seen.map((s) => s.outcome)).toEqual(['admitted', 'admitted', undefined]);
      saturated = false;
      fair.release();
      await settle();
      expect(seen[2].outcome).toBe('admitted');
    });

    it('keeps no headroom at FAIR_SHARE_LOOP_PERCENT=100, and is saturated at or above the percentage', () => {
      expect(loopHeadroom({ utilization: 1 }, 100)).toBeUndefined();
      const lag = { utilization: 0.59 };
      const headroom = loopHeadroom(lag, 60)!;
      expect(headroom.saturated()).toBe(false);
      lag.utilization = 0.6;
      expect(headroom.saturated()).toBe(true);
    });
  });
});
