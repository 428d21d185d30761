import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { DeliveryError } from '../domain/delivery.js';
import type { ResolvedAddress } from './host-resolver.js';
import { UrlGuard, WebhookUrlNotAllowedError, WebhookUrlUnresolvableError } from './url-guard.js';

export interface PostResult {
  status_code: number | null;
  error: DeliveryError | null;
  duration_ms: number;
}

/** The reply body is not used; reading stops here so a receiver cannot stream into the worker. */
const MAX_REPLY_BYTES = 64 * 1024;
const USER_AGENT = 'location-api-webhooks/1';

/**
 * One HTTP POST to a webhook receiver. The host is resolved and checked by the
 * UrlGuard on every attempt and the socket connects to that very address (the
 * `lookup` option is pinned to it; TLS still verifies the certificate against
 * the host name). Redirects are not followed: a 3xx is a failed attempt. The
 * time-out covers everything up to the status line. No error message leaves
 * here, only its class: messages carry addresses.
 */
export class WebhookTransport {
  private readonly inFlight = new Set<http.ClientRequest>();

  constructor(
    private readonly guard: UrlGuard,
    private readonly timeoutMs: number,
  ) {}

  async post(url: URL, headers: Record<string, string>, body: string): Promise<PostResult> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    let target: ResolvedAddress;
    try {
      target = await this.guard.target(url);
    } catch (error) {
      if (error instanceof WebhookUrlNotAllowedError) return { status_code: null, error: 'address_refused', duration_ms: took() };
      if (error instanceof WebhookUrlUnresolvableError) return { status_code: null, error: 'dns_failure', duration_ms: took() };
      throw error;
    }
    const outcome = await this.send(url, target, headers, body);
    return { ...outcome, duration_ms: took() };
  }

  /** Shutdown: every request in flight fails at once as a network error. */
  abortAll(): void {
    for (const request of this.inFlight) request.destroy(new Error('shutting down'));
  }

  private send(url: URL, target: ResolvedAddress, headers: Record<string, string>, body: string): Promise<Omit<PostResult, 'duration_ms'>> {
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    const payload = Buffer.from(body, 'utf8');
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Omit<PostResult, 'duration_ms'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const request = client.request(url, {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(payload.length), 'user-agent': USER_AGENT },
      });
      this.inFlight.add(request);
      const timer = setTimeout(() => {
        finish({ status_code: null, error: 'timeout' });
        request.destroy();
      }, this.timeoutMs);
      request.on('response', (response) => {
        finish({ status_code: response.statusCode ?? null, error: null });
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_REPLY_BYTES) response.destroy();
        });
        response.on('error', () => undefined);
      });
      request.on('error', (error) => finish({ status_code: null, error: classify(error) }));
      request.on('close', () => {
        this.inFlight.delete(request);
        finish({ status_code: null, error: 'network_error' });
      });
      request.end(payload);
    });
  }
}

function classify(error: Error): DeliveryError {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection_reset';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns_failure';
  if (code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('SSL') || /certificate|self.signed/i.test(error.message)) return 'tls_error';
  return 'network_error';
}
