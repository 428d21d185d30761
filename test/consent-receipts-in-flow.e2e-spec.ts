import { CommandBus } from '@nestjs/cqrs';
import { createLocalJWKSet, generateKeyPair, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { DeleteConsentDataCommand, GrantConsentCommand, RevokeConsentCommand, type ConsentReceipt } from '../libs/monitoring/src/index.js';
import { bootService, type Service } from './support/boot.js';
import { accountOf, data, json, signUp } from './support/http.js';

/**
 * Issue 52, item 3 (docs/adr/0064): granting, revoking and erasing consent yield
 * their signed receipts wherever the command is dispatched from. Here nothing
 * goes over HTTP but the JWKS the service publishes: the commands are dispatched
 * on the service's own CommandBus, as an operator command or a process handler
 * would dispatch them.
 */
const ISSUER = 'https://receipts-in-flow.example.test';
const TYP = 'consent-receipt+jwt';

describe('consent receipts in the command flow (no HTTP)', () => {
  let service: Service;
  let bus: CommandBus;
  let jwks: JSONWebKeySet;

  beforeAll(async () => {
    service = await bootService({ env: { PUBLIC_BASE_URL: ISSUER } });
    bus = service.app.get(CommandBus);
    jwks = await json<JSONWebKeySet>(await service.request('GET', '/v2/.well-known/jwks.json'));
  });
  afterAll(async () => {
    await service?.close();
  });

  /** The receipt's claims once its signature verified against the published JWKS (and its kid is the header's). */
  const verified = async (receipt: ConsentReceipt | null) => {
    expect(receipt).not.toBeNull();
    const { token, kid, typ, jwks_url } = receipt!;
    expect({ typ, jwks_url }).toEqual({ typ: TYP, jwks_url: `${ISSUER}/v2/.well-known/jwks.json` });
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), { algorithms: ['EdDSA'], typ: TYP, issuer: ISSUER });
    expect(protectedHeader.kid).toBe(kid);
    return payload;
  };

  it('answers a grant dispatched on the CommandBus with a receipt that verifies against the JWKS; revoke and delete-data too', async () => {
    const key = await signUp(service, 'Abena');
    const accountId = await accountOf(service, key);
    const grant = await bus.execute(new GrantConsentCommand({ type: 'GrantConsent', account_id: accountId, customer_id: 'cust-bus', purpose: 'loan_collections', scope: ['location'], channel: 'agent' }));
    expect(grant.state).toMatchObject({ status: 'granted', purpose: 'loan_collections', channel: 'agent' });
    // The handler minted the grant's id, as the HTTP door's grants get one.
    expect(grant.consent_id).toMatch(/^cr_[0-9a-f]{32}$/);
    expect(await verified(grant.receipt)).toMatchObject({
      iss: ISSUER,
      sub: 'cust-bus',
      jti: `${grant.consent_id}.granted`,
      consentReceiptID: grant.consent_id,
      piiPrincipalId: 'cust-bus',
      collectionMethod: 'agent',
      receipt_event: 'granted',
      status: 'granted',
    });
    // The same consent, as the HTTP door reads it.
    const status = await data<{ status: string; consent_id: string }>(await service.request('GET', '/v2/consent/status?customer_id=cust-bus', { key }));
    expect(status).toMatchObject({ status: 'granted', consent_id: grant.consent_id });

    const revocation = await bus.execute(new RevokeConsentCommand(accountId, 'cust-bus'));
    expect(revocation).toMatchObject({ state: { status: 'revoked' }, consent_id: grant.consent_id });
    expect(await verified(revocation.receipt)).toMatchObject({ receipt_event: 'revoked', status: 'revoked', consentReceiptID: grant.consent_id, revoked_at: revocation.state.revoked_at, jti: `${grant.consent_id}.revoked` });

    const erasure = await bus.execute(new DeleteConsentDataCommand(accountId, 'cust-bus', 'process:test'));
    expect(erasure).toMatchObject({ consent_id: grant.consent_id, consent: { erased: { erased_by: 'process:test' } } });
    expect(await verified(erasure.receipt)).toMatchObject({ receipt_event: 'erased', consentReceiptID: grant.consent_id, erased_at: erasure.erased_at, events_erased: erasure.events_erased, jti: `${grant.consent_id}.erased` });
  });

  it('verifies nothing the service did not sign: a receipt under the same kid from another key is refused by the JWKS', async () => {
    const key = await signUp(service, 'Yaw');
    const grant = await bus.execute(new GrantConsentCommand({ type: 'GrantConsent', account_id: await accountOf(service, key), customer_id: 'cust-forged', purpose: 'unspecified', scope: ['location'] }));
    const claims = await verified(grant.receipt);
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const forged = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'EdDSA', typ: TYP, kid: grant.receipt!.kid }).sign(privateKey);
    await expect(verified({ ...grant.receipt!, token: forged })).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  });
});
