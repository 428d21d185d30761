import type { FastifyRequest } from 'fastify';
import { callingAccount } from './calling-account.js';

const request = (principal: FastifyRequest['principal']) => ({ principal }) as FastifyRequest;

describe('callingAccount', () => {
  it("is the principal's account", () => {
    expect(callingAccount(request({ kind: 'key', account_id: 'acc_1', key_prefix: 'lk_live_ab' }))).toBe('acc_1');
  });

  it.each([
    ['no principal', undefined],
    ['the operator key', { kind: 'admin' as const, account_id: null, key_prefix: 'admin' }],
  ])('refuses %s: the guard should have stopped it', (_, principal) => {
    expect(() => callingAccount(request(principal))).toThrow('without an account principal');
  });
});
