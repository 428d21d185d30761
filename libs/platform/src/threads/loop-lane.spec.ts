import { LoopLane } from './loop-lane.js';

/** A job that records when it starts and ends, and ends when told to. */
function gatedJob(log: string[], name: string) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const job = async () => {
    log.push(`start ${name}`);
    await gate;
    log.push(`end ${name}`);
    return name;
  };
  return { job, open };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('LoopLane: one sliced job at a time, owners taking turns', () => {
  it('runs a job at once when the lane is free, and the next only when it ends', async () => {
    const lane = new LoopLane();
    const log: string[] = [];
    const a = gatedJob(log, 'a');
    const b = gatedJob(log, 'b');
    const first = lane.run('acme', a.job);
    const second = lane.run('zenith', b.job);
    await turn();
    expect(log).toEqual(['start a']);
    expect(lane.depth).toBe(1);
    a.open();
    await expect(first).resolves.toBe('a');
    await turn();
    expect(log).toEqual(['start a', 'end a', 'start b']);
    expect(lane.depth).toBe(0);
    b.open();
    await expect(second).resolves.toBe('b');
  });

  it("serves waiting owners in turn: one owner's queue holds another's job for one of its own at most", async () => {
    const lane = new LoopLane();
    const log: string[] = [];
    const jobs = ['acme-1', 'acme-2', 'acme-3', 'acme-4', 'zenith-1', 'kofi-1'].map((name) => gatedJob(log, name));
    const runs = jobs.map((job, index) => lane.run(index < 4 ? 'acme' : index === 4 ? 'zenith' : 'kofi', job.job));
    for (const job of jobs) {
      await turn();
      job.open();
    }
    await Promise.all(runs);
    const starts = log.filter((line) => line.startsWith('start')).map((line) => line.slice(6));
    // acme-1 had the lane; the line was acme (2, 3, 4), zenith, kofi: acme-2, then zenith, kofi, then acme's others.
    expect(starts).toEqual(['acme-1', 'acme-2', 'zenith-1', 'kofi-1', 'acme-3', 'acme-4']);
    // Never two at once.
    let running = 0;
    for (const line of log) {
      running += line.startsWith('start') ? 1 : -1;
      expect(running).toBeLessThanOrEqual(1);
    }
  });

  it('frees the lane when a job fails, and the failure reaches its caller', async () => {
    const lane = new LoopLane();
    const failing = lane.run('acme', async () => {
      await turn();
      throw new Error('book unreadable');
    });
    const next = lane.run('zenith', async () => 'served');
    await expect(failing).rejects.toThrow('book unreadable');
    await expect(next).resolves.toBe('served');
    await expect(lane.run('acme', async () => 'again')).resolves.toBe('again');
    expect(lane.depth).toBe(0);
  });
});
