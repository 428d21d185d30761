import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { Counter } from 'prom-client';
import { metricsRegistry } from '../../../platform/src/index.js';
import { addressRefusal } from '../../../webhooks/src/index.js';
import { CapError, MAX_CAP_BYTES } from '../cap/parse-cap.js';
import { CapReader } from '../cap/cap-reader.js';
import type { AlertRecorder } from '../public/alert-log.js';
import { feedName, type FeedPoll } from './feed-polls.js';

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

/** CAP documents the poller handled, by outcome: accepted, duplicate, rejected (invalid or bad signature), fetch_failed; feeds that failed as feed_failed. */
export const capDocuments = new Counter({
  name: 'weather_cap_documents_total',
  help: 'CAP documents met by the feed poller, by outcome (accepted, duplicate, rejected, fetch_failed, feed_failed)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

const feedParser = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false, isArray: (name) => ['item', 'entry', 'link', 'enclosure'].includes(name) });

/** The CAP links of an RSS 2.0 or Atom feed: item link/enclosure, entry link href (the CAP type or the first). */
export function capLinksOf(feedXml: string, base: string): string[] {
  if (/<!DOCTYPE|<!ENTITY/i.test(feedXml)) throw new Error('DTDs and entity declarations are refused');
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

export interface PollOutcome {
  accepted: number;
  duplicates: number;
  rejected: number;
}

/**
 * Polls the WEATHER_CAP_FEEDS: each feed, then each CAP link it lists that
 * was not read in an earlier poll, onto the alert stream (the record-alerts command). A feed that fails is
 * logged and the next one is still read; a document that fails to fetch, to
 * validate or to verify is logged (`weather.cap_rejected`) and counted.
 * Documents are read in a worker thread (CapReader). Every fetch goes through
 * the webhooks' address policy (libs/webhooks, domain/address-policy.ts):
 * http(s) only, no credentials in the URL, every resolved address must be
 * public (no loopback, private, link-local or metadata addresses unless
 * WEBHOOK_ALLOW_PRIVATE_URLS) and the socket connects to the very address
 * checked (no DNS rebinding); no redirects; a time and a size limit.
 */
export class CapFeedPoller {
  /** Per feed, the links already read; kept to the links the feed still lists. */
  private readonly seen = new Map<string, Set<string>>();
  /** Per feed, how its polls went: GET /v2/weather/alerts says so, so an empty list is read right. */
  private readonly polls = new Map<string, { last_attempt_at: string | null; last_success_at: string | null; last_error: string | null }>();
  private polling = false;

  constructor(
    private readonly feeds: string[],
    private readonly recorder: AlertRecorder,
    private readonly options: { allowPrivate: boolean },
    private readonly logger: Log,
    private readonly reader = new CapReader(),
    private readonly now: () => Date = () => new Date(),
    /** Where each poll's outcome is kept for the alerts query (FeedPolls, in the read store). */
    private readonly report: (feed: string, poll: Omit<FeedPoll, 'feed'>) => Promise<void> = async () => undefined,
  ) {}

  /**
   * The feeds polled and how their last polls went. A feed is named by its
   * origin and path only: a query string may hold a subscription token.
   */
  status(): FeedPoll[] {
    return this.feeds.map((feed) => ({ feed: feedName(feed), ...(this.polls.get(feed) ?? { last_attempt_at: null, last_success_at: null, last_error: null }) }));
  }

  /** One pass over every feed; a pass still running when the next is due is not doubled (the second returns zeros). */
  async pollAll(): Promise<PollOutcome> {
    const outcome: PollOutcome = { accepted: 0, duplicates: 0, rejected: 0 };
    if (this.polling) return outcome;
    this.polling = true;
    try {
      await this.pollFeeds(outcome);
    } finally {
      this.polling = false;
    }
    return outcome;
  }

  private async pollFeeds(outcome: PollOutcome): Promise<void> {
    for (const feed of this.feeds) {
      const poll = this.polls.get(feed) ?? { last_attempt_at: null, last_success_at: null, last_error: null };
      this.polls.set(feed, poll);
      poll.last_attempt_at = this.now().toISOString();
      try {
        const links = capLinksOf(await this.fetchText(feed, MAX_FEED_BYTES), feed);
        const before = this.seen.get(feed) ?? new Set<string>();
        const seen = new Set(links.filter((link) => before.has(link)));
        this.seen.set(feed, seen);
        const fresh = links.filter((link) => !seen.has(link));
        let accepted = 0;
        for (const link of fresh) {
          const result = await this.importOne(link);
          if (result !== 'fetch_failed') seen.add(link);
          if (result === 'accepted') accepted++;
          if (result === 'duplicate') outcome.duplicates++;
          if (result === 'rejected' || result === 'fetch_failed') outcome.rejected++;
        }
        outcome.accepted += accepted;
        // The feed was read and every document it listed was handled (a refused document is the publisher's, not the poll's, failure).
        poll.last_success_at = this.now().toISOString();
        poll.last_error = null;
        this.logger.info({ event: 'weather.feed_polled', feed: feedName(feed), links: links.length, new_links: fresh.length, accepted });
      } catch (error) {
        capDocuments.inc({ outcome: 'feed_failed' });
        poll.last_error = (error as Error).message;
        this.logger.error({ event: 'weather.feed_failed', feed: feedName(feed), message: (error as Error).message });
      }
      await this.report(feed, poll).catch((error: unknown) => this.logger.error({ event: 'weather.feed_poll_unrecorded', feed: feedName(feed), message: (error as Error).message }));
    }
  }

  /** The worker thread, when one was started. */
  close(): Promise<void> {
    return this.reader.close();
  }

  private async importOne(link: string): Promise<'accepted' | 'duplicate' | 'rejected' | 'fetch_failed'> {
    let xml: string;
    try {
      xml = await this.fetchText(link, MAX_CAP_BYTES);
    } catch (error) {
      capDocuments.inc({ outcome: 'fetch_failed' });
      this.logger.error({ event: 'weather.cap_fetch_failed', url: link, message: (error as Error).message });
      return 'fetch_failed';
    }
    let alert;
    try {
      alert = await this.reader.read(xml);
    } catch (error) {
      // Anything else (the reader thread dying on a document) refuses this document too; the feed goes on.
      const reason = error instanceof CapError ? error.message : `CAP: could not be read (${(error as Error).message})`;
      capDocuments.inc({ outcome: 'rejected' });
      this.logger.error({ event: 'weather.cap_rejected', url: link, reason });
      return 'rejected';
    }
    // A failure to record (the event store) fails this feed's pass: the link is read again next poll.
    const result = (await this.recorder.record([alert])) === 1 ? 'accepted' : 'duplicate';
    capDocuments.inc({ outcome: result });
    return result;
  }

  /** GET with the address policy and a pinned address, no redirects, FEED_TIMEOUT_MS and a byte ceiling. */
  async fetchText(url: string, maxBytes: number): Promise<string> {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new FeedUrlRefusedError(`${parsed.protocol} URLs are not fetched`);
    if (parsed.username || parsed.password) throw new FeedUrlRefusedError('URLs with credentials are not fetched');
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(host);
    const addresses = literal ? [{ address: host, family: literal }] : await lookup(host, { all: true, verbatim: true });
    if (addresses.length === 0) throw new Error(`${host} does not resolve`);
    if (!this.options.allowPrivate) {
      for (const { address } of addresses) {
        const refusal = addressRefusal(address);
        if (refusal) throw new FeedUrlRefusedError(`${parsed.hostname} resolves to a refused address (${refusal})`);
      }
    }
    return get(parsed, addresses[0], maxBytes);
  }
}

/** One GET connecting to `target` whatever DNS says now; 2xx only (a redirect is an error), at most `maxBytes`, FEED_TIMEOUT_MS in all. */
function get(url: URL, target: { address: string; family: number }, maxBytes: number): Promise<string> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
      request.destroy();
    };
    const request = client.get(url, { lookup: pinned, agent: false, headers: { accept: 'application/rss+xml, application/atom+xml, application/cap+xml, application/xml, text/xml', 'user-agent': 'location-api-weather/1' } });
    const timer = setTimeout(() => fail(new Error(`no answer within ${FEED_TIMEOUT_MS} ms`)), FEED_TIMEOUT_MS);
    request.on('error', fail);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) return fail(new Error(`HTTP ${status}${response.headers.location ? ' (redirects are not followed)' : ''}`));
      if (Number(response.headers['content-length'] ?? 0) > maxBytes) return fail(new Error(`larger than ${maxBytes} bytes`));
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) fail(new Error(`larger than ${maxBytes} bytes`));
        else chunks.push(chunk);
      });
      response.on('error', fail);
      response.on('aborted', () => fail(new Error('the connection closed mid-answer')));
      response.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
    });
  });
}
