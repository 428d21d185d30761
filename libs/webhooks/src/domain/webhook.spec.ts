import type { WebhookEventType } from '../../../monitoring/src/index.js';
import {
  decideWebhook,
  evolveWebhook,
  initialWebhookState,
  isSubscribed,
  parseWebhookUrl,
  webhookStream,
  WebhookNotConfiguredError,
  type WebhookCommand,
  type WebhookEvent,
} from './webhook.js';

const t1 = new Date('2026-11-22T08:00:00.000Z');
const t2 = new Date('2026-11-22T09:00:00.000Z');
const configure = (url: string, eventTypes: WebhookEventType[], now: Date): WebhookCommand => ({
  type: 'ConfigureWebhook',
  account_id: 'acct_1',
  url,
  secret_sealed: 'v1.sealed',
  secret_length: 24,
  event_types: eventTypes,
  now,
});

function given(events: WebhookEvent[]) {
  const state = events.reduce(evolveWebhook, initialWebhookState);
  return { state, when: (command: WebhookCommand) => decideWebhook(command, state) };
}

describe('webhook decider', () => {
  it('configures, de-duplicating event types', () => {
    expect(given([]).when(configure('https://a.example/hook', ['drift', 'consent_revoked', 'drift'], t1))).toEqual([
      {
        type: 'WebhookConfigured',
        data: { account_id: 'acct_1', url: 'https://a.example/hook', secret_sealed: 'v1.sealed', secret_length: 24, event_types: ['drift', 'consent_revoked'], configured_at: t1.toISOString() },
      },
    ]);
  });

  it('replaces the endpoint when configured again', () => {
    const first = given([]).when(configure('https://a.example/hook', ['drift'], t1));
    const second = given(first).when(configure('https://b.example/hook', ['geofence_breach'], t2));
    const { state } = given([...first, ...second]);
    expect(state).toMatchObject({ status: 'configured', url: 'https://b.example/hook', event_types: ['geofence_breach'], configured_at: t2.toISOString() });
    expect(isSubscribed(state, 'geofence_breach')).toBe(true);
    expect(isSubscribed(state, 'drift')).toBe(false);
  });

  it('removes a webhook, and refuses to remove none', () => {
    const configured = given([]).when(configure('https://a.example/hook', ['drift'], t1));
    const removed = given(configured).when({ type: 'RemoveWebhook', account_id: 'acct_1', now: t2 });
    expect(given([...configured, ...removed]).state).toEqual({ status: 'none' });
    expect(isSubscribed(given([...configured, ...removed]).state, 'drift')).toBe(false);
    expect(() => given([]).when({ type: 'RemoveWebhook', account_id: 'acct_1', now: t2 })).toThrow(WebhookNotConfiguredError);
  });

  it('names the stream by account', () => {
    expect(webhookStream('acct_1')).toBe('webhook-acct_1');
  });
});

describe('webhook URL rules', () => {
  it('accepts http and https URLs with paths, ports and queries', () => {
    expect(parseWebhookUrl('https://hooks.example.com:8443/in?tenant=1').href).toBe('https://hooks.example.com:8443/in?tenant=1');
    expect(parseWebhookUrl('http://[2606:4700::1111]/x').hostname).toBe('[2606:4700::1111]');
  });

  it.each([
    ['not a url'],
    ['/relative/path'],
    ['ftp://files.example.com/'],
    ['file:///etc/passwd'],
    ['javascript:alert(1)'],
    ['https://user:pass@hooks.example.com/'],
    ['https://token@hooks.example.com/'],
    ['https://hooks.example.com/#frag'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`],
  ])('refuses %s naming the url field', (url) => {
    expect(() => parseWebhookUrl(url)).toThrow(expect.objectContaining({ code: 'INVALID_PARAM', field: 'url' }));
  });
});
