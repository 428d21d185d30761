import { PassThrough } from 'node:stream';
import { loadConfig } from '../config/config.js';
import { JsonLogger } from '../logging/json-logger.js';
import { clientErrorHandler, illFormedParameter, refuseEncodedBody } from './http-edge.js';

describe('illFormedParameter', () => {
  it('names a query or path parameter holding a lone surrogate', () => {
    expect(illFormedParameter({ params: {}, query: { q: 'Accra' } } as never)).toBeUndefined();
    expect(illFormedParameter({ params: { code: 'a\ud800' }, query: {} } as never)).toMatchObject({ status: 400, code: 'INVALID_PARAM', field: 'code' });
    expect(illFormedParameter({ params: null, query: { q: ['ok', '\udfff'] } } as never)).toMatchObject({ field: 'q' });
    expect(illFormedParameter({ params: {}, query: { '\ud800': 'x' } } as never)).toMatchObject({ field: 'query' });
    expect(illFormedParameter({ params: {}, query: { q: '\ud83d\ude00' } } as never)).toBeUndefined();
  });
});

describe('refuseEncodedBody', () => {
  const reply = () => {
    const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
    const fake = {
      status: (status: number) => ((sent.status = status), fake),
      header: (name: string, value: string) => ((sent.headers[name] = value), fake),
      send: (body: unknown) => ((sent.body = body), fake),
    };
    return { fake: fake as never, sent };
  };
  const request = (headers: Record<string, string>) => ({ id: 'r1', headers }) as never;

  it('answers 415 for any coding but identity on a request with a body', () => {
    for (const coding of ['gzip', 'x-gzip', 'deflate', 'br', 'identity, gzip', 'GZIP']) {
      const { fake, sent } = reply();
      expect(refuseEncodedBody(request({ 'content-encoding': coding, 'content-length': '10' }), fake)).toBe(true);
      expect(sent).toMatchObject({ status: 415, headers: { 'accept-encoding': 'identity' }, body: { error: { code: 'UNSUPPORTED_MEDIA_TYPE', field: 'content-encoding' } } });
    }
    const chunked = reply();
    expect(refuseEncodedBody(request({ 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' }), chunked.fake)).toBe(true);
  });

  it('lets identity through, and a coding header on a request without a body', () => {
    expect(refuseEncodedBody(request({ 'content-encoding': 'identity', 'content-length': '10' }), reply().fake)).toBe(false);
    expect(refuseEncodedBody(request({ 'content-encoding': 'gzip' }), reply().fake)).toBe(false);
    expect(refuseEncodedBody(request({ 'content-encoding': 'gzip', 'content-length': '0' }), reply().fake)).toBe(false);
    expect(refuseEncodedBody(request({ 'content-length': '10' }), reply().fake)).toBe(false);
  });
});

describe('clientErrorHandler', () => {
  const config = loadConfig({ REQUEST_TIMEOUT_MS: '3000', HEADERS_TIMEOUT_MS: '1000' });

  const answer = (code: string | undefined, socketState: { httpMessageHeadersSent?: boolean } = {}) => {
    const lines: string[] = [];
    const logged = new PassThrough();
    logged.on('data', (chunk) => lines.push(String(chunk)));
    const socket = Object.assign(new PassThrough(), socketState.httpMessageHeadersSent === undefined ? {} : { _httpMessage: { headersSent: socketState.httpMessageHeadersSent } });
    socket.on('error', () => undefined);
    let written = '';
    socket.write = ((chunk: string) => ((written += chunk), true)) as never;
    const error = Object.assign(new Error('boom'), { code, rawPacket: Buffer.from('GET / HTTP/1.1\r\nX-API-Key: secret-key-123\r\n') });
    clientErrorHandler(config, new JsonLogger('info', logged))(error, socket);
    return { written, destroyed: socket.destroyed, log: lines.join('') };
  };

  it('writes the envelope with the status Node would use, then closes', () => {
    const timeout = answer('ERR_HTTP_REQUEST_TIMEOUT');
    expect(timeout.written).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    const body = JSON.parse(timeout.written.split('\r\n\r\n')[1]);
    expect(body).toMatchObject({ success: false, error: { code: 'REQUEST_TIMEOUT', request_id: expect.any(String) } });
    expect(body.error.message).toContain('1000 ms');
    expect(timeout.destroyed).toBe(true);
    expect(answer('HPE_HEADER_OVERFLOW').written).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer('HPE_INVALID_METHOD').written).toMatch(/^HTTP\/1\.1 400 [\s\S]*MALFORMED_REQUEST/);
  });

  it('writes nothing into an answer already under way, and nothing on a reset', () => {
    expect(answer('ERR_HTTP_REQUEST_TIMEOUT', { httpMessageHeadersSent: true })).toMatchObject({ written: '', destroyed: true });
    expect(answer('ECONNRESET').written).toBe('');
  });

  it('logs the refusal without the raw bytes (they hold the key)', () => {
    const { log } = answer('HPE_INVALID_METHOD');
    expect(log).toContain('MALFORMED_REQUEST');
    expect(log).not.toContain('secret-key-123');
  });
});
