import { betweenTurns, countLoopTurns, logLoopTurns } from '../testing/loop-turns.js';
import { stepsInTurns, yieldingBytes, yieldingEach } from './expensive.js';

function* chunks(name: string, count: number, log: string[]): Generator<string> {
  for (let index = 0; index < count; index++) {
    log.push(`${name}${index}`);
    yield `${name}${index}`;
  }
}

async function drain(stream: AsyncGenerator<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

describe('yieldingEach', () => {
  it('hands out every chunk in order, computed as it is read', async () => {
    const log: string[] = [];
    const stream = yieldingEach(chunks('a', 3, log));
    expect(log).toEqual([]);
    expect(await drain(stream)).toEqual(['a0', 'a1', 'a2']);
  });

  it('gives each concurrent answer at most one chunk per turn of the loop, in turn', async () => {
    const log: string[] = [];
    const ticking = logLoopTurns(log);
    const [a, b] = await Promise.all([drain(yieldingEach(chunks('a', 5, log))), drain(yieldingEach(chunks('b', 5, log)))]);
    ticking.stop();
    expect(a).toHaveLength(5);
    expect(b).toHaveLength(5);
    // Between two turns, no answer computed two chunks.
    const between = betweenTurns(log);
    for (const part of between) {
      expect(part.filter((chunk) => chunk.startsWith('a')).length).toBeLessThanOrEqual(1);
      expect(part.filter((chunk) => chunk.startsWith('b')).length).toBeLessThanOrEqual(1);
    }
    expect(between.filter((part) => part.length > 0).length).toBeGreaterThanOrEqual(5);
  });

  it('closes its source when the reader stops early', async () => {
    let closed = false;
    function* source(): Generator<number> {
      try {
        for (let index = 0; ; index++) yield index;
      } finally {
        closed = true;
      }
    }
    for await (const value of yieldingEach(source())) if (value === 2) break;
    expect(closed).toBe(true);
  });

  it('passes on a chunk that throws', async () => {
    function* failing(): Generator<number> {
      yield 1;
      throw new Error('no such place');
    }
    await expect(drain(yieldingEach(failing()) as AsyncGenerator<never>)).rejects.toThrow('no such place');
  });
});

describe('yieldingBytes', () => {
  it('streams the bytes unchanged in chunks of at most the size given, the loop turning between them', async () => {
    const bytes = Buffer.from(Array.from({ length: 100_000 }, (_, index) => String.fromCharCode(97 + (index % 26))).join(''));
    const ticker = countLoopTurns();
    const chunks: Buffer[] = [];
    for await (const chunk of yieldingBytes(bytes, 16 * 1024)) chunks.push(chunk as Buffer);
    const turns = ticker.stop();
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    expect(chunks).toHaveLength(Math.ceil(bytes.length / (16 * 1024)));
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThanOrEqual(16 * 1024);
    // One chunk a turn: the ticker got in between them.
    expect(turns).toBeGreaterThanOrEqual(chunks.length - 1);
  });

  it('streams nothing for no bytes', async () => {
    const chunks: unknown[] = [];
    for await (const chunk of yieldingBytes(Buffer.alloc(0))) chunks.push(chunk);
    expect(chunks).toEqual([]);
  });
});

describe('stepsInTurns', () => {
  function* job(name: string, steps: number, log: string[]): Generator<void, string> {
    for (let index = 0; index < steps; index++) {
      log.push(`${name}${index}`);
      yield;
    }
    log.push(`${name}-done`);
    return `${name} result`;
  }

  it("runs a job's steps a turn of the loop apart, alongside the answers' chunks, and answers what the job returns", async () => {
    const log: string[] = [];
    const ticking = logLoopTurns(log);
    const [a, answer] = await Promise.all([stepsInTurns(job('a', 4, log)), drain(yieldingEach(chunks('c', 4, log)))]);
    ticking.stop();
    expect(a).toBe('a result');
    expect(answer).toEqual(['c0', 'c1', 'c2', 'c3']);
    // Between two turns, the job took at most one step: the steps are not run back to back.
    const between = betweenTurns(log);
    for (const part of between) expect(part.filter((entry) => entry.startsWith('a')).length).toBeLessThanOrEqual(1);
    expect(between.flat().filter((entry) => entry.startsWith('a'))).toEqual(['a0', 'a1', 'a2', 'a3', 'a-done']);
  });

  it('rejects with what a step throws', async () => {
    function* failing(): Generator<void, never> {
      yield;
      throw new Error('broken slice');
    }
    await expect(stepsInTurns(failing())).rejects.toThrow('broken slice');
  });
});
