import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditEventTypes, type AccessEntry } from '../../../audit/src/index.js';
import { accessRecorderOver, auditTrailOver } from '../../../audit/src/public/testing/audit-trail.js';
import { accountDecider, accountsManifest, accountStream, accountsEventTypes, apiKeyDecider, apiKeyStream } from '../../../accounts/src/index.js';
import { consentDecider, consentStream, geofenceDecider, monitoringEventTypes, monitoringManifest } from '../../../monitoring/src/index.js';
import { bankingEventTypes, bankingManifest, loanDecider, loanStream, scheduleDecider, scheduleStream, type LoanTerms } from '../../../banking/src/index.js';
import { webhookDecider, webhooksManifest, webhookStream, webhooksEventTypes } from '../../../webhooks/src/index.js';
import { EmbeddedEventStore, EventRegistry, hashEmail, StreamNotFoundError, type Clock, type EventStore } from '../../../platform/src/index.js';
import type { Decider } from '../../../platform/src/commands/decider.js';
import { AsOfRegistry, replayAsOf } from './as-of-replay.js';

/** A clock the test moves: every change is decided at the instant it says. */
class TestClock implements Clock {
  constructor(private instant: Date) {}
  now(): Date {
    return new Date(this.instant);
  }
  set(iso: string): void {
    this.instant = new Date(iso);
  }
}

describe('as-of replay', () => {
  let events: EventStore;
  const registry = new EventRegistry().register(...auditEventTypes, ...accountsEventTypes, ...monitoringEventTypes, ...webhooksEventTypes, ...bankingEventTypes);
  const clock = new TestClock(new Date('2026-03-01T09:00:00Z'));
  // The contexts declare their parts in their manifests; compliance imports none of them.
  const manifests = [accountsManifest, monitoringManifest, webhooksManifest, bankingManifest];
  const contributors = AsOfRegistry.fromManifests(manifests);
  const account = 'acct_asof1';

  /** Load, decide with the context's own decider at the clock's instant, append: the command pipeline's steps. */
  async function run<C, S, E extends { type: string; data: object }>(stream: string, decider: Decider<C, S, E>, command: C): Promise<void> {
    let stored: Awaited<ReturnType<EventStore['readStream']>> = [];
    try {
      stored = await events.readStream(stream);
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    const state = stored.reduce((current, event) => decider.evolve(current, { type: event.type, data: event.data } as unknown as E), decider.initialState);
    const decided = decider.decide(command, state, clock.now());
    await events.append(
      stream,
      decided.map((event) => ({ type: event.type, data: event.data as Record<string, unknown>, metadata: registry.metadataFor(event.type) })),
      stored.length === 0 ? 'no_stream' : stored.at(-1)!.revision,
    );
  }

  const access = (at: string, method: string, requestPath: string, accountId: string | null): AccessEntry => ({
    account_id: accountId,
    key_prefix: accountId ? 'lnd_abcd…' : 'opkey123…',
    principal_kind: accountId ? 'account' : 'admin',
    method,
    path: requestPath,
    status: 200,
    client_ip: '203.0.113.7',
    at,
    request_id: `req-${at}`,
  });

  const schedule = `rvs_${'b'.repeat(32)}`;
  const loanTerms = (radius_m: number): LoanTerms => ({
    customer_id: 'cust-1',
    zone: { type: 'point', lat: 5.6, lng: -0.19, radius_m },
    expected_collection_days: 7,
    anchor: { lat: 5.6, lng: -0.19 },
  });

  beforeAll(async () => {
    events = await EmbeddedEventStore.open(mkdtempSync(path.join(tmpdir(), 'asof-')));
    const recorder = accessRecorderOver(events, registry);
    clock.set('2026-03-01T09:00:00Z');
    await run(accountStream(account), accountDecider, { type: 'OpenAccount', account_id: account, name: 'Lender', email: 'Ops@Lender.example', tier: 'free' });
    await run(apiKeyStream('key_1'), apiKeyDecider, {
      type: 'IssueApiKey',
      data: { key_id: 'key_1', key_hash: 'h'.repeat(64), key_prefix: 'lnd_abcd', kind: 'account', account_id: account, name: 'main', email: null, tier: 'free', expires_at: null, rotated_from: null },
    });
    await run(apiKeyStream('key_other'), apiKeyDecider, {
      type: 'IssueApiKey',
      data: { key_id: 'key_other', key_hash: 'o'.repeat(64), key_prefix: 'oth_0000', kind: 'account', account_id: 'acct_other', name: 'x', email: null, tier: 'pro', expires_at: null, rotated_from: null },
    });
    await recorder.record(access('2026-03-01T09:30:00Z', 'GET', '/v2/me', account));

    clock.set('2026-03-02T10:00:00Z');
    await run(accountStream(account), accountDecider, { type: 'ChangeTier', account_id: account, tier: 'enterprise' });
    await run(accountStream(account), accountDecider, { type: 'SetBankingAccess', account_id: account, enabled: true });
    await recorder.record(access('2026-03-02T10:00:00Z', 'PUT', `/v2/admin/accounts/${account}/tier`, null));
    await recorder.record(access('2026-03-02T10:00:01Z', 'PUT', `/v2/admin/accounts/${account}/banking`, null));
    await recorder.record(access('2026-03-02T10:00:02Z', 'PUT', '/v2/admin/accounts/acct_other/banking', null));
    await run(consentStream(account, 'cust-1'), consentDecider, { type: 'GrantConsent', account_id: account, customer_id: 'cust-1', purpose: 'loan_collections', scope: ['location'] });
    await run(webhookStream(account), webhookDecider, { type: 'ConfigureWebhook', account_id: account, url: 'https://lender.example/hook', secret: 's'.repeat(24), event_types: ['geofence_breach'] });
    await run(`geofence-${account}:gf_${'a'.repeat(32)}`, geofenceDecider, {
      type: 'CreateGeofence',
      account_id: account,
      fence_id: `gf_${'a'.repeat(32)}`,
      geometry: { fence_type: 'circle', center: { lat: 5.6, lng: -0.19 }, radius_m: 500 },
      name: 'branch',
      customer_id: null,
      loan_id: null,
      active_fences: 0,
    });
    await run(loanStream(account, 'loan-1'), loanDecider, { type: 'RegisterLoan', account_id: account, loan_id: 'loan-1', terms: loanTerms(300) });
    await run(scheduleStream(account, schedule), scheduleDecider, {
      type: 'CreateSchedule',
      account_id: account,
      schedule_id: schedule,
      terms: { customer_id: 'cust-1', loan_id: 'loan-1', every_days: 30, method: 'kyc_address', address: 'GA-183-8164' },
    });
    await recorder.record(access('2026-03-02T11:00:00Z', 'GET', '/v2/banking/audit-log', account));

    clock.set('2026-03-03T15:00:00Z');
    await run(accountStream(account), accountDecider, { type: 'ReplaceIpAllowlist', account_id: account, entries: ['203.0.113.0/24'] });
    await run(consentStream(account, 'cust-1'), consentDecider, { type: 'RevokeConsent', account_id: account, customer_id: 'cust-1' });
    await run(apiKeyStream('key_1'), apiKeyDecider, { type: 'RevokeApiKey', data: { key_id: 'key_1', reason: 'operator', replaced_by: null } });
    await run(webhookStream(account), webhookDecider, { type: 'RemoveWebhook', account_id: account });
    await run(loanStream(account, 'loan-1'), loanDecider, { type: 'RegisterLoan', account_id: account, loan_id: 'loan-1', terms: loanTerms(800) });
    await run(scheduleStream(account, schedule), scheduleDecider, { type: 'CancelSchedule', account_id: account, schedule_id: schedule });
    await recorder.flush();
  });
  afterAll(() => events.close());

  const asOf = (at: string) => replayAsOf(events, registry, contributors, auditTrailOver(events), account, new Date(at));

  it('before the account was opened, there is nothing', async () => {
    const answer = await asOf('2026-03-01T08:00:00Z');
    expect(answer.state.account).toBeNull();
    expect(answer.state.keys).toEqual({});
    expect(answer.changes).toEqual([]);
    expect(answer.access.total).toBe(0);
  });

  it('on the first day: free tier, no banking, one active key, e-mail hashed, no secrets', async () => {
    const answer = await asOf('2026-03-01T12:00:00Z');
    expect(answer.state.account).toMatchObject({ tier: 'free', banking_access: false, ip_allowlist: [], email_sha256: hashEmail('ops@lender.example') });
    expect(answer.state.keys).toEqual({ lnd_abcd: expect.objectContaining({ kind: 'account', state: 'active' }) });
    expect(answer.state.consents).toEqual({});
    expect(answer.state.webhook).toBeNull();
    expect(answer.state.collection_loans).toEqual({});
    expect(answer.state.reverification_schedules).toEqual({});
    expect(answer.access.entries.map((entry) => entry.path)).toEqual(['/v2/me']);
    expect(answer.operator_actions).toEqual([]);
    expect(JSON.stringify(answer)).not.toMatch(/Ops@Lender|hhhhhhhh/);
  });

  it('on 3 March at 14:00: enterprise with banking, consent granted, webhook without its secret, the fence, and the operator actions', async () => {
    const answer = await asOf('2026-03-03T14:00:00Z');
    expect(answer.state.account).toMatchObject({ tier: 'enterprise', banking_access: true, ip_allowlist: [] });
    expect(answer.state.keys).toEqual({ lnd_abcd: expect.objectContaining({ state: 'active' }) });
    expect(answer.state.consents).toEqual({ 'cust-1': expect.objectContaining({ purpose: 'loan_collections', state: 'granted' }) });
    expect(answer.state.webhook).toEqual({ url: 'https://lender.example/hook', event_types: ['geofence_breach'], secret_length: 24, configured_at: '2026-03-02T10:00:00.000Z' });
    expect(Object.values(answer.state.geofences as object)).toEqual([expect.objectContaining({ state: 'active', name: 'branch', radius_m: 500 })]);
    expect(answer.operator_actions.map((action) => action.path)).toEqual([`/v2/admin/accounts/${account}/tier`, `/v2/admin/accounts/${account}/banking`]);
    expect(answer.changes.map((change) => change.type)).toContain('BankingAccessChanged');
    expect(answer.access.total).toBe(2);
    expect(answer.state.collection_loans).toEqual({ 'loan-1': expect.objectContaining({ customer_id: 'cust-1', zone: expect.objectContaining({ radius_m: 300 }), registrations: 1 }) });
    expect(answer.state.reverification_schedules).toEqual({ [schedule]: expect.objectContaining({ status: 'active', cancelled_at: null }) });
    expect(JSON.stringify(answer)).not.toContain('s'.repeat(24));
  });

  it('after the changes of 3 March 15:00: allowlist set, consent revoked, key revoked, webhook removed', async () => {
    const answer = await asOf('2026-03-03T15:00:00Z');
    expect(answer.state.account).toMatchObject({ ip_allowlist: ['203.0.113.0/24'] });
    expect(answer.state.consents).toEqual({ 'cust-1': expect.objectContaining({ state: 'revoked', revoked_at: '2026-03-03T15:00:00.000Z' }) });
    expect(answer.state.keys).toEqual({ lnd_abcd: expect.objectContaining({ state: 'revoked' }) });
    expect(answer.state.webhook).toBeNull();
    expect(answer.state.collection_loans).toEqual({ 'loan-1': expect.objectContaining({ zone: expect.objectContaining({ radius_m: 800 }), registrations: 2 }) });
    expect(answer.state.reverification_schedules).toEqual({ [schedule]: expect.objectContaining({ status: 'cancelled', cancelled_at: '2026-03-03T15:00:00.000Z' }) });
  });

  it('refuses a contributor registered twice', () => {
    expect(() => AsOfRegistry.fromManifests(manifests).register(accountsManifest.asOf![0])).toThrow(/twice/);
    expect(() => AsOfRegistry.fromManifests([...manifests, { name: 'copy', events: [], asOf: monitoringManifest.asOf }])).toThrow(/consents registered twice/);
  });

  it('folds the parts every manifest declares, and only those', () => {
    expect(contributors.list().map((contributor) => contributor.name)).toEqual(['account', 'keys', 'users', 'consents', 'geofences', 'webhook', 'collection_loans', 'reverification_schedules']);
  });
});
