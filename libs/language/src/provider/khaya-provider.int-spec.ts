import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AudioNotTranscribableError, LanguageProviderError, LanguageProviderTimeoutError, LanguageQuotaError } from '../domain/errors.js';
import { json, khayaLike, KhayaTestServer } from '../testing/khaya-test-server.js';
import { KhayaLanguageProvider, retryAfter } from './khaya-provider.js';

/** The Khaya adapter against a local server speaking Khaya's shape: answers, APIM's refusals, failures and time-outs. */
describe('Khaya language provider', () => {
  const server = new KhayaTestServer();
  let baseUrl: string;
  const logged: Array<Record<string, unknown>> = [];
  const provider = (options: { apiKey?: string; timeoutMs?: number; baseUrl?: string } = {}) =>
    new KhayaLanguageProvider({ baseUrl: options.baseUrl ?? baseUrl, apiKey: options.apiKey ?? KhayaTestServer.KEY, timeoutMs: options.timeoutMs ?? 2000, log: (entry) => logged.push(entry) });
  const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(500, 7)]);

  beforeAll(async () => {
    baseUrl = await server.start();
  });
  afterAll(() => server.stop());
  afterEach(() => {
    server.behaviour = khayaLike;
    server.seen.length = 0;
    logged.length = 0;
  });

  it('translates with {in, lang} and the subscription key, and reads the bare JSON string it answers', async () => {
    expect(await provider().translate({ text: 'Where is the market?', from: 'en', to: 'gaa' })).toEqual({ text: '[en-gaa] Where is the market?' });
    const [seen] = server.seen;
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/translate' });
    expect(seen.headers['ocp-apim-subscription-key']).toBe(KhayaTestServer.KEY);
    expect(seen.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen.body.toString())).toEqual({ in: 'Where is the market?', lang: 'en-gaa' });
  });

  it('sends speech as the raw body with its media type and the language in the query', async () => {
    expect(await provider().transcribe({ audio: mp3, mediaType: 'audio/mpeg', language: 'dag' })).toEqual({ text: 'transcript of 503 bytes of audio/mpeg' });
    expect(server.seen[0]).toMatchObject({ url: '/asr/v1/transcribe?language=dag', headers: { 'content-type': 'audio/mpeg' } });
    expect(server.seen[0].body.equals(mp3)).toBe(true);
  });

  it('takes an object answer naming its text too', async () => {
    server.behaviour = (_request, response) => json(response, 200, { translatedText: 'Ɛte sɛn?' });
    expect(await provider().translate({ text: 'How are you?', from: 'en', to: 'tw' })).toEqual({ text: 'Ɛte sɛn?' });
  });

  it('turns a refused key (401) into 503 LANGUAGE_QUOTA, and logs without the key', async () => {
    const error = await provider({ apiKey: 'wrong' }).translate({ text: 'x', from: 'en', to: 'tw' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LanguageQuotaError);
    expect(error).toMatchObject({ code: 'LANGUAGE_QUOTA', status: 503 });
    expect(logged).toEqual([expect.objectContaining({ operation: 'translate', status: 401 })]);
    expect(JSON.stringify(logged)).not.toContain('wrong');
  });

  it("turns APIM's quota (403) and rate limit (429) into 503 LANGUAGE_QUOTA with the provider's Retry-After", async () => {
    server.behaviour = (_request, response) => json(response, 403, { statusCode: 403, message: 'Out of call volume quota. Quota will be replenished in 00:42:00.' }, { 'retry-after': '2520' });
    expect(await provider().translate({ text: 'x', from: 'en', to: 'tw' }).catch((caught: unknown) => caught)).toMatchObject({ code: 'LANGUAGE_QUOTA', retryAfterSeconds: 2520 });
    server.behaviour = (_request, response) => json(response, 429, { statusCode: 429, message: 'Rate limit is exceeded. Try again in 3 seconds.' }, { 'retry-after': '3' });
    expect(await provider().transcribe({ audio: mp3, mediaType: 'audio/mpeg', language: 'tw' }).catch((caught: unknown) => caught)).toMatchObject({ code: 'LANGUAGE_QUOTA', retryAfterSeconds: 3 });
  });

  it('answers 502 for a provider failure or an answer without text, 422 for audio the provider refuses', async () => {
    server.behaviour = (_request, response) => json(response, 500, { statusCode: 500, message: 'Internal server error' });
    await expect(provider().translate({ text: 'x', from: 'en', to: 'tw' })).rejects.toBeInstanceOf(LanguageProviderError);
    server.behaviour = (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops</html>');
    await expect(provider().translate({ text: 'x', from: 'en', to: 'tw' })).rejects.toBeInstanceOf(LanguageProviderError);
    server.behaviour = (_request, response) => json(response, 200, { something: 'else' });
    await expect(provider().translate({ text: 'x', from: 'en', to: 'tw' })).rejects.toMatchObject({ code: 'LANGUAGE_PROVIDER_ERROR', status: 502 });
    server.behaviour = (_request, response) => json(response, 400, { message: 'could not decode audio' });
    await expect(provider().transcribe({ audio: mp3, mediaType: 'audio/mpeg', language: 'tw' })).rejects.toBeInstanceOf(AudioNotTranscribableError);
    await expect(provider().translate({ text: 'x', from: 'en', to: 'tw' })).rejects.toBeInstanceOf(LanguageProviderError);
  });

  it('gives up after the time-out, whether the provider never answers or stalls half way through its answer', async () => {
    server.behaviour = () => undefined;
    const silent = await provider({ timeoutMs: 150 }).translate({ text: 'x', from: 'en', to: 'tw' }).catch((caught: unknown) => caught);
    expect(silent).toBeInstanceOf(LanguageProviderTimeoutError);
    expect(silent).toMatchObject({ code: 'LANGUAGE_PROVIDER_TIMEOUT', status: 504 });
    server.behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('"half a tran');
    };
    await expect(provider({ timeoutMs: 150 }).transcribe({ audio: mp3, mediaType: 'audio/mpeg', language: 'tw' })).rejects.toBeInstanceOf(LanguageProviderTimeoutError);
  });

  it('refuses an answer larger than 256 KiB, declared or streamed', async () => {
    server.behaviour = (_request, response) => json(response, 200, 'x'.repeat(300 * 1024));
    await expect(provider().translate({ text: 'x', from: 'en', to: 'tw' })).rejects.toBeInstanceOf(LanguageProviderError);
    server.behaviour = (_request, response) => {
      // Chunked, no Content-Length: only counting what arrives can stop it.
      response.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      response.write('"');
      for (let index = 0; index < 300; index++) response.write('y'.repeat(1024));
      response.end('"');
    };
    await expect(provider().translate({ text: 'x', from: 'en', to: 'tw' })).rejects.toBeInstanceOf(LanguageProviderError);
  });

  it('does not follow a redirect (the key would go with it), nor hang on an unreachable provider', async () => {
    let elsewhere = 0;
    const other: Server = createServer((_request, response) => {
      elsewhere++;
      response.end('"leaked"');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1/translate`;
      server.behaviour = (_request, response) => response.writeHead(307, { location: target }).end();
      await expect(provider().translate({ text: 'x', from: 'en', to: 'tw' })).rejects.toBeInstanceOf(LanguageProviderError);
      expect(elsewhere).toBe(0);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
    // A port nothing listens on: refused at once, 502.
    await expect(provider({ baseUrl: 'http://127.0.0.1:9' }).translate({ text: 'x', from: 'en', to: 'tw' })).rejects.toBeInstanceOf(LanguageProviderError);
  });

  it('reads Retry-After as seconds or as a date, within 1 s to a day', () => {
    const now = Date.parse('2026-11-23T09:00:00Z');
    expect(retryAfter('120', now)).toBe(120);
    expect(retryAfter('0', now)).toBe(1);
    expect(retryAfter('999999', now)).toBe(86_400);
    expect(retryAfter('Mon, 23 Nov 2026 09:01:30 GMT', now)).toBe(90);
    expect(retryAfter('soon', now)).toBeUndefined();
    expect(retryAfter(null, now)).toBeUndefined();
  });
});
