import { Writable } from 'node:stream';
import { JsonLogger } from './json-logger.js';

function capture(): { logger: JsonLogger; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    logger: new JsonLogger('debug', sink),
    lines: () => chunks.join('').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('JsonLogger', () => {
  it('writes one JSON object per line with level, time and message', () => {
    const { logger, lines } = capture();
    logger.log('started', 'Bootstrap');
    logger.info({ msg: 'listening', port: 8080 });
    const [first, second] = lines();
    expect(first).toMatchObject({ level: 30, context: 'Bootstrap', msg: 'started' });
    expect(typeof first.time).toBe('string');
    expect(second).toMatchObject({ msg: 'listening', port: 8080 });
  });

  it('never writes secrets, at the top level or one level down', () => {
    const { logger, lines } = capture();
    logger.info({ msg: 'signup', key: 'k-SECRET-1', password: 'p-SECRET-2', body: { secret: 's-SECRET-3', token: 't-SECRET-4' } });
    logger.access({ request_id: 'r', headers: { 'x-api-key': 'h-SECRET-5' } });
    const text = JSON.stringify(lines());
    expect(text).not.toMatch(/SECRET/);
    expect(text).toContain('[redacted]');
  });
});
