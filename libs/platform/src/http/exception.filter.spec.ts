import type { ArgumentsHost } from '@nestjs/common';
import { DomainError, InvalidParamError } from '../errors.js';
import { EnvelopeExceptionFilter } from './exception.filter.js';

class Overloaded extends DomainError {
  readonly code = 'BUSY';
  readonly status = 503;
  constructor(override readonly retryAfterSeconds?: number) {
    super('busy');
  }
}

class WithDetails extends DomainError {
  readonly code = 'SOMETHING_SPECIFIC';
  readonly status = 409;
  override readonly field = 'thing';
  override readonly details = { reason: 'taken', suggestions: ['thing-2'] };
}

/** What the filter sends, through a reply that records status and body as Fastify's would. */
function answer(exception: unknown): { status: number; body: unknown; headers: Record<string, string> } {
  const sent: { status: number; body: unknown; headers: Record<string, string> } = { status: 0, body: undefined, headers: {} };
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name] = value;
      return reply;
    },
    send(body: unknown) {
      sent.body = body;
      return reply;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => reply, getRequest: () => ({ id: 'req-1' }) }) } as unknown as ArgumentsHost;
  new EnvelopeExceptionFilter().catch(exception, host);
  return sent;
}

describe('EnvelopeExceptionFilter', () => {
  it("sends a domain error's details as error.details", () => {
    expect(answer(new WithDetails('it is taken'))).toEqual({
      status: 409,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: { success: false, error: { code: 'SOMETHING_SPECIFIC', message: 'it is taken', field: 'thing', details: { reason: 'taken', suggestions: ['thing-2'] }, request_id: 'req-1' } },
    });
  });

  it('leaves details out when the error has none', () => {
    expect(answer(new InvalidParamError('lat must be a number', 'lat')).body).toEqual({
      success: false,
      error: { code: 'INVALID_PARAM', message: 'lat must be a number', field: 'lat', request_id: 'req-1' },
    });
  });

  it("sends a domain error's retryAfterSeconds as Retry-After, whole seconds and at least 1", () => {
    expect(answer(new Overloaded(30)).headers['retry-after']).toBe('30');
    expect(answer(new Overloaded(0.2)).headers['retry-after']).toBe('1');
    expect(answer(new Overloaded(2.5)).headers['retry-after']).toBe('3');
    expect(answer(new Overloaded()).headers).not.toHaveProperty('retry-after');
    expect(answer(new InvalidParamError('no', 'x')).headers).not.toHaveProperty('retry-after');
  });
});
