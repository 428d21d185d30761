import { json as answerJson, khayaLike, KhayaTestServer } from '../libs/language/src/testing/khaya-test-server.js';
import { bootService, type Service } from './support/boot.js';

/**
 * Ghanaian-language services over HTTP (issue #18; interface.md, "Routing,
 * transit, weather, language"): public, throttled per IP, through the Khaya
 * adapter against a local server speaking Khaya's shape; 503 LANGUAGE_QUOTA
 * when unconfigured or out of quota.
 */
interface ErrorEnvelope {
  success: false;
  error: { code: string; message: string; field?: string; details?: Record<string, unknown>; request_id: string };
}

const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(2000, 1)]);
const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(1000, 2)]);
let nextIp = 1;
/** Each request from its own client address (TRUST_PROXY), so the per-IP throttle only bites where a test wants it. */
const freshIp = () => `198.51.100.${nextIp++ % 250}`;

async function send(service: Service, method: string, url: string, init: { body?: unknown; raw?: Buffer; contentType?: string; ip?: string } = {}) {
  const headers: Record<string, string> = { 'x-forwarded-for': init.ip ?? freshIp() };
  let body: string | Buffer | undefined;
  if (init.raw) {
    body = init.raw;
    headers['content-type'] = init.contentType ?? 'application/octet-stream';
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${service.url}${url}`, { method, headers, body });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> & ErrorEnvelope };
}

describe('language services, configured (Khaya adapter against a local Khaya-shaped server)', () => {
  const khaya = new KhayaTestServer();
  let service: Service;

  beforeAll(async () => {
    const url = await khaya.start();
    service = await bootService({
      env: { KHAYA_API_URL: url, KHAYA_API_KEY: KhayaTestServer.KEY, KHAYA_TIMEOUT_MS: '300', LANGUAGE_AUDIO_MAX_BYTES: '65536', TRUST_PROXY: 'true', THROTTLE_LANGUAGE_PER_MINUTE: '5' },
    });
  });
  afterAll(async () => {
    await service?.close();
    await khaya.stop();
  });
  afterEach(() => {
    khaya.behaviour = khayaLike;
  });

  it('translates English to and from each Ghanaian language, without a key', async () => {
    const answer = await send(service, 'POST', '/v2/language/translate', { body: { text: 'Where is Makola market?', from: 'en', to: 'gur' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, data: { from: 'en', to: 'gur', translation: '[en-gur] Where is Makola market?', provider: 'ghananlp-khaya' } });
    expect((await send(service, 'POST', '/v2/language/translate', { body: { text: 'Ɛte sɛn?', from: 'tw', to: 'en' } })).body).toMatchObject({ data: { translation: '[tw-en] Ɛte sɛn?' } });
  });

  it('refuses an unsupported pair with 400 naming `to`, and unknown codes or bad text naming their field, before calling the provider', async () => {
    const calls = khaya.seen.length;
    const pair = await send(service, 'POST', '/v2/language/translate', { body: { text: 'hello', from: 'tw', to: 'ee' } });
    expect(pair).toMatchObject({ status: 400, body: { error: { code: 'UNSUPPORTED_LANGUAGE_PAIR', field: 'to', details: { pair: 'tw-ee' } } } });
    expect((await send(service, 'POST', '/v2/language/translate', { body: { text: 'hello', from: 'en', to: 'fr' } })).body.error).toMatchObject({ code: 'INVALID_PARAM', field: 'to' });
    expect((await send(service, 'POST', '/v2/language/translate', { body: { text: 'x'.repeat(1001), from: 'en', to: 'tw' } })).body.error).toMatchObject({ code: 'INVALID_PARAM', field: 'text' });
    expect((await send(service, 'POST', '/v2/language/translate', { body: { text: '', from: 'en', to: 'tw' } })).body.error).toMatchObject({ field: 'text' });
    expect(khaya.seen.length).toBe(calls);
  });

  it('transcribes a raw audio upload in a Ghanaian language', async () => {
    const answer = await send(service, 'POST', '/v2/language/transcribe?language=tw', { raw: mp3, contentType: 'audio/mpeg' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, data: { language: 'tw', text: 'transcript of 2003 bytes of audio/mpeg', provider: 'ghananlp-khaya', audio: { media_type: 'audio/mpeg', bytes: 2003 } } });
    const seen = khaya.seen.at(-1)!;
    expect(seen.url).toBe('/asr/v1/transcribe?language=tw');
    expect(seen.body.equals(mp3)).toBe(true);
    expect((await send(service, 'POST', '/v2/language/transcribe?language=gaa', { raw: wav, contentType: 'audio/wav; codecs=1' })).status).toBe(200);
  });

  it('bounds and checks the upload: 413 over the cap, 415 for other types or mislabelled bytes, 400 for a bad language or no audio', async () => {
    const calls = khaya.seen.length;
    const big = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(70_000)]);
    expect(await send(service, 'POST', '/v2/language/transcribe?language=tw', { raw: big, contentType: 'audio/mpeg' })).toMatchObject({
      status: 413,
      body: { error: { code: 'PAYLOAD_TOO_LARGE', details: { max_bytes: 65536 } } },
    });
    // Without a Content-Length (chunked), the body is counted as it arrives and cut off past the cap.
    const chunks = [Buffer.from('ID3'), ...Array.from({ length: 20 }, () => Buffer.alloc(4096))];
    const streamed = await fetch(`${service.url}/v2/language/transcribe?language=tw`, {
      method: 'POST',
      headers: { 'content-type': 'audio/mpeg', 'x-forwarded-for': freshIp() },
      body: new ReadableStream({ pull: (controller) => (chunks.length ? controller.enqueue(chunks.shift()!) : controller.close()) }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as ErrorEnvelope).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await send(service, 'POST', '/v2/language/transcribe?language=tw', { raw: mp3, contentType: 'audio/aiff' })).body.error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', field: 'content-type' });
    expect((await send(service, 'POST', '/v2/language/transcribe?language=tw', { raw: mp3, contentType: 'audio/wav' })).body.error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('looks like mp3') });
    expect((await send(service, 'POST', '/v2/language/transcribe?language=tw', { raw: mp3, contentType: 'application/octet-stream' })).status).toBe(415);
    expect((await send(service, 'POST', '/v2/language/transcribe?language=tw', { body: { audio: 'base64…' } })).body.error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect((await send(service, 'POST', '/v2/language/transcribe?language=en', { raw: mp3, contentType: 'audio/mpeg' })).body.error).toMatchObject({ code: 'INVALID_PARAM', field: 'language' });
    expect((await send(service, 'POST', '/v2/language/transcribe', { raw: mp3, contentType: 'audio/mpeg' })).body.error).toMatchObject({ code: 'INVALID_PARAM', field: 'language' });
    expect((await send(service, 'POST', '/v2/language/transcribe?language=tw', { raw: Buffer.alloc(0), contentType: 'audio/mpeg' })).body.error).toMatchObject({ code: 'INVALID_PARAM', field: 'body' });
    expect(khaya.seen.length).toBe(calls);
  });

  it('takes audio nowhere else: other routes answer 415 to an audio body', async () => {
    const elsewhere = await send(service, 'POST', '/v2/language/translate', { raw: mp3, contentType: 'audio/mpeg' });
    expect(elsewhere).toMatchObject({ status: 415, body: { success: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } } });
    expect((await send(service, 'POST', '/v2/self/signup', { raw: mp3, contentType: 'audio/mpeg' })).status).toBe(415);
  });

  it("answers 503 LANGUAGE_QUOTA with the provider's Retry-After when its quota is spent, 502 when it fails, 504 when it does not answer", async () => {
    khaya.behaviour = (_request, response) => answerJson(response, 403, { statusCode: 403, message: 'Out of call volume quota.' }, { 'retry-after': '600' });
    const quota = await send(service, 'POST', '/v2/language/translate', { body: { text: 'hello', from: 'en', to: 'ee' } });
    expect(quota).toMatchObject({ status: 503, body: { success: false, error: { code: 'LANGUAGE_QUOTA' } } });
    expect(quota.headers.get('retry-after')).toBe('600');
    khaya.behaviour = (_request, response) => answerJson(response, 502, { statusCode: 502, message: 'Bad gateway' });
    expect(await send(service, 'POST', '/v2/language/transcribe?language=ee', { raw: mp3, contentType: 'audio/mpeg' })).toMatchObject({ status: 502, body: { error: { code: 'LANGUAGE_PROVIDER_ERROR' } } });
    khaya.behaviour = () => undefined;
    expect(await send(service, 'POST', '/v2/language/translate', { body: { text: 'hello', from: 'en', to: 'ee' } })).toMatchObject({ status: 504, body: { error: { code: 'LANGUAGE_PROVIDER_TIMEOUT' } } });
  });

  it('throttles per client IP (THROTTLE_LANGUAGE_PER_MINUTE) across both endpoints', async () => {
    const ip = '203.0.113.77';
    const statuses: number[] = [];
    for (let index = 0; index < 3; index++) statuses.push((await send(service, 'POST', '/v2/language/translate', { body: { text: 'hi', from: 'en', to: 'tw' }, ip })).status);
    for (let index = 0; index < 3; index++) statuses.push((await send(service, 'POST', '/v2/language/transcribe?language=tw', { raw: mp3, contentType: 'audio/mpeg', ip })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await send(service, 'POST', '/v2/language/translate', { body: { text: 'hi', from: 'en', to: 'tw' }, ip: '203.0.113.78' })).status).toBe(200);
  });
});

describe('language services, unconfigured (no KHAYA_API_KEY)', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => service?.close());

  it('answers 503 LANGUAGE_QUOTA in the envelope on both endpoints, after checking the input', async () => {
    const translate = await send(service, 'POST', '/v2/language/translate', { body: { text: 'hello', from: 'en', to: 'tw' } });
    expect(translate).toMatchObject({ status: 503, body: { success: false, error: { code: 'LANGUAGE_QUOTA' } } });
    const transcribe = await send(service, 'POST', '/v2/language/transcribe?language=tw', { raw: mp3, contentType: 'audio/mpeg' });
    expect(transcribe).toMatchObject({ status: 503, body: { error: { code: 'LANGUAGE_QUOTA' } } });
    expect((await send(service, 'POST', '/v2/language/translate', { body: { text: 'hello', from: 'ee', to: 'tw' } })).status).toBe(400);
  });
});
