import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import type { WebhookEventType } from './notification.js';
import { isSubscribed, parseWebhookUrl, webhookDecider, webhookStream, WebhookNotConfiguredError, webhookView, type WebhookCommand } from './webhook.js';

const t1 = new Date('2026-11-22T08:00:00.000Z');
const t2 = new Date('2026-11-22T09:00:00.000Z');
const SECRET = 'whsec_0123456789abcdef01';
const configure = (url: string, eventTypes: WebhookEventType[]): WebhookCommand => ({ type: 'ConfigureWebhook', account_id: 'acct_1', url, secret: SECRET, event_types: eventTypes });
const remove: WebhookCommand = { type: 'RemoveWebhook', account_id: 'acct_1' };
const { given, history } = deciderSpec(webhookDecider, t1);

describe('webhook decider', () => {
  it('configures, de-duplicating event types and normalising the URL; the secret goes to the codec, its length to the views', () => {
    expect(given([]).when(configure('HTTPS://A.example/hook', ['drift', 'consent_revoked', 'drift'])).events).toEqual([
      {
        type: 'WebhookConfigured',
        data: { account_id: 'acct_1', url: 'https://a.example/hook', secret: SECRET, secret_length: SECRET.length, event_types: ['drift', 'consent_revoked'], configured_at: t1.toISOString() },
      },
    ]);
  });

  it('refuses a URL the rules refuse, before anything is decided', () => {
    expect(given([]).when(configure('ftp://a.example/', ['drift'])).error).toMatchObject({ code: 'INVALID_PARAM', field: 'url' });
  });

  it('replaces the endpoint when configured again', () => {
    const { state } = given(history([configure('https://a.example/hook', ['drift']), t1], [configure('https://b.example/hook', ['geofence_breach']), t2]));
    expect(state).toMatchObject({ status: 'configured', url: 'https://b.example/hook', event_types: ['geofence_breach'], configured_at: t2.toISOString() });
    expect(isSubscribed(state, 'geofence_breach')).toBe(true);
    expect(isSubscribed(state, 'drift')).toBe(false);
    if (state.status !== 'configured') throw new Error('not configured');
    expect(webhookView(state)).toEqual({ url: 'https://b.example/hook', event_types: ['geofence_breach'], secret_length: SECRET.length, configured_at: t2.toISOString() });
  });

  it('removes a webhook, and refuses to remove none', () => {
    const configured = history(configure('https://a.example/hook', ['drift']));
    const removed = given(configured).when(remove, t2);
    expect(removed.events).toEqual([{ type: 'WebhookRemoved', data: { account_id: 'acct_1', removed_at: t2.toISOString() } }]);
    expect(removed.state).toEqual({ status: 'none' });
    expect(isSubscribed(removed.state, 'drift')).toBe(false);
    expect(given([]).when(remove).error).toBeInstanceOf(WebhookNotConfiguredError);
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
