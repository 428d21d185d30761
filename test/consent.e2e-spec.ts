import { ADMIN_KEY, bootService, type Service } from './support/boot.js';
import { data, json, signUp } from './support/http.js';

/** interface.md, "Consent states" and the consent rows of "Identity, consent, monitoring". */
describe('consent over HTTP', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService();
  });
  afterAll(async () => {
    await service?.close();
  });

  const status = (key: string, customerId: string) => service.request('GET', `/v2/consent/status?customer_id=${encodeURIComponent(customerId)}`, { key });

  it('grants with the default purpose, shows it, revokes, and refuses deletion until revoked', async () => {
    const key = await signUp(service, 'Esi');
    const customer = 'cust:0042';

    const none = await status(key, customer);
    expect(none.status).toBe(200);
    // Issue 26 added consent_id, notice, channel, captured_at and proof (docs/adr/0032): null while nothing was granted.
    expect(await data(none)).toEqual({ customer_id: customer, status: 'none', consent_id: null, purpose: null, scope: null, notice: null, channel: null, captured_at: null, proof: null, granted_at: null, revoked_at: null, data_erased_at: null });

    const early = await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: customer } });
    expect(early.status).toBe(400);
    expect(await json(early)).toMatchObject({ error: { code: 'CONSENT_NOT_REVOKED' } });

    const granted = await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: customer } });
    expect(granted.status).toBe(200);
    const grant = await data(granted);
    expect(grant).toMatchObject({ customer_id: customer, status: 'granted', purpose: 'unspecified', scope: ['location'] });
    expect(typeof grant.granted_at).toBe('string');

    expect(await data(await status(key, customer))).toMatchObject({ status: 'granted', purpose: 'unspecified', scope: ['location'], revoked_at: null });

    const whileGranted = await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: customer } });
    expect(whileGranted.status).toBe(400);
    expect(await json(whileGranted)).toMatchObject({ error: { code: 'CONSENT_NOT_REVOKED' } });

    const revoked = await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: customer } });
    expect(revoked.status).toBe(200);
    const revoke = await data(revoked);
    expect(revoke).toMatchObject({ customer_id: customer, status: 'revoked', purpose: 'unspecified' });
    expect(typeof revoke.revoked_at).toBe('string');
    expect(await data(await status(key, customer))).toMatchObject({ status: 'revoked', purpose: 'unspecified', revoked_at: revoke.revoked_at });

    const again = await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: customer } });
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ error: { code: 'CONSENT_NOT_GRANTED' } });

    const deletion = await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: customer } });
    expect(deletion.status).toBe(200);
    const erased = await data<{ erased: boolean; erased_at: string; events_erased: number }>(deletion);
    expect(erased).toMatchObject({ customer_id: customer, erased: true, events_erased: 1 });
    expect(await data(await status(key, customer))).toMatchObject({ status: 'revoked', data_erased_at: erased.erased_at });
  });

  it('answers twenty identical grants sent at once all with 200 and the one grant (issue 10: 409 CONCURRENCY_CONFLICT before)', async () => {
    const key = await signUp(service, 'Esi');
    const body = { customer_id: 'c-burst', purpose: 'loan_collections', scope: ['location'] };
    const responses = await Promise.all(Array.from({ length: 20 }, () => service.request('POST', '/v2/consent/grant', { key, body })));
    expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const grants = await Promise.all(responses.map((response) => data<{ granted_at: string }>(response)));
    expect(new Set(grants.map((grant) => JSON.stringify(grant))).size).toBe(1);
    expect(await data(await status(key, 'c-burst'))).toMatchObject({ status: 'granted', purpose: 'loan_collections', granted_at: grants[0].granted_at });
  });

  it('erases idempotently under concurrent delete-data: every caller gets the same 200 (issue 10: 500 ENOENT before)', async () => {
    const key = await signUp(service, 'Esi');
    const customer_id = 'c-erase-burst';
    await service.request('POST', '/v2/consent/grant', { key, body: { customer_id } });
    const pings = Array.from({ length: 5 }, (_, i) => ({ customer_id, lat: 5.55 + i * 1e-4, lng: -0.2, recorded_at: new Date(Date.now() - (10 - i) * 60_000).toISOString() }));
    expect((await data<{ accepted: number }>(await service.request('POST', '/v2/monitoring/pings', { key, body: { pings } }))).accepted).toBe(5);
    expect((await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id } })).status).toBe(200);
    const answers: Array<{ status: number; body: { data?: unknown; error?: unknown } }> = [];
    for (let burst = 0; burst < 5; burst += 1) {
      const responses = await Promise.all(Array.from({ length: 10 }, () => service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id } })));
      answers.push(...(await Promise.all(responses.map(async (response) => ({ status: response.status, body: await json(response) })))));
    }
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    // Five pings and the revoke's CollectionStopped marker.
    const [first] = answers.map((answer) => answer.body.data as { erased_at: string });
    expect(first).toMatchObject({ customer_id, erased: true, events_erased: 6 });
    expect(answers.filter((answer) => JSON.stringify(answer.body.data) !== JSON.stringify(first))).toEqual([]);
    expect(await data(await status(key, customer_id))).toMatchObject({ status: 'revoked', data_erased_at: first.erased_at });
  });

  it('after erasure the status answers the erasure, not the notice, the proof or the receipt id (issue 47)', async () => {
    const key = await signUp(service, 'Esi');
    const customer_id = 'c-erased-status';
    const notice = { version: 'loan-monitoring-2026-10', sha256: 'ab'.repeat(32), language: 'tw' };
    const proof = { kind: 'otp', reference: 'otp-issue47-status-0042' };
    const grant = await service.request('POST', '/v2/consent/grant', { key, body: { customer_id, purpose: 'loan_collections', notice, channel: 'ussd', captured_at: new Date().toISOString(), proof } });
    expect(grant.status).toBe(200);
    const granted = await data<{ consent_id: string }>(grant);
    expect(await data(await status(key, customer_id))).toMatchObject({ consent_id: granted.consent_id, notice, proof, channel: 'ussd' });
    const revoked = await data<{ revoked_at: string }>(await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id } }));
    // Revoked but not erased: the record is still the lender's to show.
    expect(await data(await status(key, customer_id))).toMatchObject({ consent_id: granted.consent_id, notice, proof });
    const erased = await data<{ erased_at: string }>(await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id } }));
    const after = await status(key, customer_id);
    expect(after.status).toBe(200);
    const answer = await data<Record<string, unknown>>(after);
    expect(answer).toEqual({
      customer_id,
      status: 'revoked',
      consent_id: null,
      purpose: 'loan_collections',
      scope: ['location'],
      notice: null,
      channel: null,
      captured_at: null,
      proof: null,
      granted_at: expect.any(String),
      revoked_at: revoked.revoked_at,
      data_erased_at: erased.erased_at,
    });
    const text = JSON.stringify(answer);
    for (const secret of [granted.consent_id, proof.reference, notice.sha256]) expect(text).not.toContain(secret);
    // The stored grant never held the proof reference in the clear: sealed under the record key the erasure destroyed.
    const account = (await data<{ account_id: string }>(await service.request('GET', '/v2/me', { key }))).account_id;
    const stored = await service.runtime.backends.events.readStream(`consent-${account}:${customer_id}`);
    expect(stored.map((event) => event.type)).toContain('ConsentGranted');
    expect(JSON.stringify(stored.map((event) => event.data))).not.toContain(proof.reference);
  });

  it('grants again after a revoke with a new purpose and scope', async () => {
    const key = await signUp(service, 'Esi');
    await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'c1', purpose: 'fleet_dispatch' } });
    await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: 'c1' } });
    const regrant = await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'c1', purpose: 'loan_collections', scope: ['location', 'device', 'location'] } });
    expect(regrant.status).toBe(200);
    expect(await data(await status(key, 'c1'))).toMatchObject({ status: 'granted', purpose: 'loan_collections', scope: ['location', 'device'], revoked_at: null });
  });

  it.each([
    [{ customer_id: 'c1', purpose: 'marketing' }, 'purpose'],
    [{ customer_id: 'has space' }, 'customer_id'],
    [{ customer_id: 'x'.repeat(129) }, 'customer_id'],
    [{}, 'customer_id'],
    [{ customer_id: 'c1', scope: [] }, 'scope'],
    [{ customer_id: 'c1', scope: Array.from({ length: 21 }, (_, i) => `s${i}`) }, 'scope'],
    [{ customer_id: 'c1', scope: 'location' }, 'scope'],
  ])('refuses the grant %j naming field %s', async (body, field) => {
    const key = await signUp(service, 'Esi');
    const response = await service.request('POST', '/v2/consent/grant', { key, body });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ error: { code: 'INVALID_PARAM', field } });
  });

  it('refuses a bad customer id on the status query', async () => {
    const key = await signUp(service, 'Esi');
    const response = await status(key, 'bad id');
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'customer_id' } });
  });

  it('refuses legacy keys: customer ids belong to an account', async () => {
    const issued = await service.request('POST', '/v2/admin/keys', { key: ADMIN_KEY, body: { name: 'old integration', tier: 'pro' } });
    const legacy = (await data<{ key: string }>(issued)).key;
    for (const [method, url, body] of [
      ['POST', '/v2/consent/grant', { customer_id: 'c1' }],
      ['POST', '/v2/consent/revoke', { customer_id: 'c1' }],
      ['POST', '/v2/consent/delete-data', { customer_id: 'c1' }],
      ['GET', '/v2/consent/status?customer_id=c1', undefined],
    ] as const) {
      const response = await service.request(method, url, { key: legacy, body });
      expect(response.status).toBe(403);
      expect(await json(response)).toMatchObject({ error: { code: 'ACCOUNT_KEY_REQUIRED' } });
    }
  });

  it("keeps one account's customers from another account", async () => {
    const mine = await signUp(service, 'Esi');
    const theirs = await signUp(service, 'Esi');
    await service.request('POST', '/v2/consent/grant', { key: mine, body: { customer_id: 'shared-id', purpose: 'safety_monitoring' } });
    expect(await data(await status(mine, 'shared-id'))).toMatchObject({ status: 'granted', purpose: 'safety_monitoring' });
    expect(await data(await status(theirs, 'shared-id'))).toMatchObject({ status: 'none', purpose: null });
    const revoke = await service.request('POST', '/v2/consent/revoke', { key: theirs, body: { customer_id: 'shared-id' } });
    expect(revoke.status).toBe(409);
    expect(await data(await status(mine, 'shared-id'))).toMatchObject({ status: 'granted' });
  });
});
