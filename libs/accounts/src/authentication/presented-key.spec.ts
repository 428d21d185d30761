import type { FastifyRequest } from 'fastify';
import { hashKey } from '../credentials/index.js';
import { KeyReader } from './presented-key.js';

const request = (key?: string | string[]) => ({ headers: key === undefined ? {} : { 'x-api-key': key } }) as unknown as FastifyRequest;

describe('KeyReader', () => {
  const reader = new KeyReader('the-operator-key');

  it('reads the key with its lookup hash, and tells the operator key', () => {
    expect(reader.read(request('abc'))).toEqual({ key: 'abc', hash: hashKey('abc'), operator: false });
    expect(reader.read(request('the-operator-key'))).toMatchObject({ operator: true });
    expect(reader.read(request(['the-operator-key', 'x']))).toMatchObject({ key: 'the-operator-key', operator: true });
    expect(new KeyReader(undefined).read(request('the-operator-key'))).toMatchObject({ operator: false });
  });

  it('answers null without a key or with an empty one', () => {
    expect(reader.read(request())).toBeNull();
    expect(reader.read(request(''))).toBeNull();
  });

  it('works a request out once: the throttle and the guard share the answer', () => {
    const same = request('abc');
    const first = reader.read(same);
    expect(new KeyReader('the-operator-key').read(same)).toBe(first);
  });
});
