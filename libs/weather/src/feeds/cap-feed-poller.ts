import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { addressRefusal } from '../../../webhooks/src/index.js';
import { MAX_CAP_BYTES } from '../cap/parse-cap.js';
import type { AlertLog } from '../alerts/alert-log.js';
import { importAlerts } from '../alerts/import-alerts.js';

/** One fetch (feed or alert) may take this long, body included. */
export const FEED_TIMEOUT_MS = 10_000;
/** A feed larger than this is refused. */
export const MAX_FEED_BYTES = 1024 * 1024;
/** At most this many alert links are read from one feed per poll. */
export const MAX_LINKS_PER_FEED = 200;

interface Log {
  info(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

export class FeedUrlRefusedError extends Error {}

const feedParser = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false, isArray: (name) => ['item', 'entry', 'link', 'enclosure'].includes(name) });

/** The CAP links of an RSS 2.0 or Atom feed: item link/enclosure, entry link href (the CAP type or the first). */
export function capLinksOf(feedXml: string, base: string): string[] {
  const feed = feedParser.parse(feedXml) as Record<string, any>;
  const links: string[] = [];
  for (const item of feed.rss?.channel?.item ?? []) {
    for (const link of item.link ?? []) links.push(typeof link === 'string' ? link : link['#text']);
    for (const enclosure of item.enclosure ?? []) if (enclosure['@_url']) links.push(enclosure['@_url']);
  }
  for (const entry of feed.feed?.entry ?? []) {
    const entryLinks = (entry.link ?? []) as Array<Record<string, string>>;
    const cap = entryLinks.find((link) => /cap/i.test(link['@_type'] ?? '')) ?? entryLinks[0];
    if (cap?.['@_href']) links.push(cap['@_href']);
  }
  return [...new Set(links.filter(Boolean).map((link) => new URL(link.trim(), base).toString()))].slice(0, MAX_LINKS_PER_FEED);
}

/**
 * Polls the WEATHER_CAP_FEEDS: each feed, then each CAP link not read yet,
 * into the alert log. Every fetch goes through the same address policy as
 * webhooks (libs/webhooks, domain/address-policy.ts): http(s) only, no
 * loopback, private, link-local or metadata addresses (unless
 * WEBHOOK_ALLOW_PRIVATE_URLS), no redirects, a time and a size limit.
 */
export class CapFeedPoller {
  private readonly seen = new Set<string>();

  constructor(
    private readonly feeds: string[],
    private readonly log: AlertLog,
    private readonly options: { allowPrivate: boolean },
    private readonly logger: Log,
  ) {}

  async pollAll(): Promise<{ accepted: number; rejected: number }> {
    let accepted = 0;
    let rejected = 0;
    for (const feed of this.feeds) {
      try {
        const links = capLinksOf(await this.fetchText(feed, MAX_FEED_BYTES), feed).filter((link) => !this.seen.has(link));
        const documents: Array<{ source: string; xml: string }> = [];
        for (const link of links) {
          try {
            documents.push({ source: link, xml: await this.fetchText(link, MAX_CAP_BYTES) });
            this.seen.add(link);
          } catch (error) {
            rejected++;
            this.logger.error({ event: 'weather.cap_fetch_failed', url: link, message: (error as Error).message });
          }
        }
        const outcome = importAlerts(this.log, documents);
        accepted += outcome.accepted;
        rejected += outcome.rejected.length;
        for (const refusal of outcome.rejected) this.logger.error({ event: 'weather.cap_rejected', url: refusal.source, reason: refusal.reason });
        this.logger.info({ event: 'weather.feed_polled', feed, links: links.length, accepted: outcome.accepted });
      } catch (error) {
        this.logger.error({ event: 'weather.feed_failed', feed, message: (error as Error).message });
      }
    }
    return { accepted, rejected };
  }

  /** GET with the address policy, no redirects, FEED_TIMEOUT_MS and a byte ceiling. */
  async fetchText(url: string, maxBytes: number): Promise<string> {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new FeedUrlRefusedError(`${parsed.protocol} URLs are not fetched`);
    if (parsed.username || parsed.password) throw new FeedUrlRefusedError('URLs with credentials are not fetched');
    if (!this.options.allowPrivate) {
      const host = parsed.hostname.replace(/^\[|\]$/g, '');
      const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
      for (const address of addresses) {
        const refusal = addressRefusal(address);
        if (refusal) throw new FeedUrlRefusedError(`${parsed.hostname} resolves to a refused address (${refusal})`);
      }
    }
    const response = await fetch(parsed, { signal: AbortSignal.timeout(FEED_TIMEOUT_MS), redirect: 'error' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    if (Number(response.headers.get('content-length') ?? 0) > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
    const reader = response.body?.getReader();
    if (!reader) return '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new Error(`larger than ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}
