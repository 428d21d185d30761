import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { AddressResolverModule, type AddressPlaces } from '../../addressing/src/index.js';
import { CONSENT_RECEIPT_SIGNER, CUSTOMER_LOCATIONS, MonitoringModule, type ConsentReceiptSigner, type CustomerLocations } from '../../monitoring/src/index.js';
import {
  CONFIG,
  DATA_KEY_VAULT,
  EVENT_STORE,
  EventRegistry,
  Followers,
  JsonLogger,
  READ_STORE,
  ReadModels,
  registerView,
  SecretBox,
  type Config,
  type DataKeyVault,
  type EventStore,
  type ReadStore,
} from '../../platform/src/index.js';
import { ConfirmDeliveryController } from './commands/confirm-delivery/confirm-delivery.controller.js';
import { ConfirmDeliveryHandler } from './commands/confirm-delivery/confirm-delivery.handler.js';
import { EnsureSigningKeyHandler } from './commands/ensure-signing-key/ensure-signing-key.handler.js';
import { RecordRotationHandler, RotateSigningKeysHandler } from './commands/rotate-signing-keys/rotate-signing-keys.handler.js';
import { VerifyKycHandler } from './commands/verify-kyc/verify-kyc.handler.js';
import { VerifyProximityHandler } from './commands/verify-proximity/verify-proximity.handler.js';
import { RotateSigningKeysController } from './commands/rotate-signing-keys/rotate-signing-keys.controller.js';
import { VerifyKycController } from './commands/verify-kyc/verify-kyc.controller.js';
import { VerifyProximityController } from './commands/verify-proximity/verify-proximity.controller.js';
import { LOCATION_EVIDENCE, type LocationEvidence } from './evidence/location-evidence.port.js';
import { FRAUD_SIGNALS } from './fraud/fraud-signals.port.js';
import { ReadModelFraudSignals } from './fraud/read-model-fraud-signals.js';
import { IdentityHashing } from './hashing/identity-hashing.js';
import { IdentityNotifications } from './notifications/identity-notifications.js';
import { GetJwksController } from './queries/get-jwks/get-jwks.controller.js';
import { GetJwksHandler } from './queries/get-jwks/get-jwks.handler.js';
import { CertificateSigner } from './public/certificate-signer.js';
import { SigningKeyRing } from './public/signing-key-ring.js';
import { IdentitySealing } from './sealing/identity-sealing.js';
import { SigningKeysBootstrap } from './signing/signing-keys-bootstrap.js';
import { lastVerifiedAddressCode } from './public/customer-verifications.js';
import { VERIFIED_ADDRESSES, type VerifiedAddresses } from './verified-addresses.port.js';

/**
 * The identity context's webhook notification source alone, for the process
 * that fans notifications out (it serves no HTTP).
 */
@Module({
  providers: [
    {
      provide: IdentityNotifications,
      inject: [EVENT_STORE, EventRegistry, DATA_KEY_VAULT],
      useFactory: (events: EventStore, registry: EventRegistry, vault: DataKeyVault) => new IdentityNotifications(events, registry, vault),
    },
  ],
  exports: [IdentityNotifications],
})
export class IdentityNotificationsModule {}

/**
 * Identity (interface.md, "Identity, consent, monitoring"; issue 12):
 * proximity verification with signed certificates, KYC address verification,
 * proof-of-delivery receipts, fraud checks, the signing keys and their JWKS.
 * Claimed addresses are resolved through the addressing context's resolver
 * over the reference places, which the composition root binds
 * (`withPlaces`, as AddressingModule does); recorded pings are read through
 * the monitoring context's CustomerLocations port.
 */
@Module({})
export class IdentityModule {
  static withPlaces<T extends AddressPlaces>(places: { module: Type<unknown> | DynamicModule; provider: abstract new (...args: never[]) => T }): DynamicModule {
    return {
      module: IdentityModule,
      imports: [AddressResolverModule.over(places), IdentityNotificationsModule, MonitoringModule],
      controllers: [VerifyProximityController, VerifyKycController, ConfirmDeliveryController, RotateSigningKeysController, GetJwksController],
      providers: [
        {
          provide: SigningKeyRing,
          inject: [EVENT_STORE, EventRegistry, SecretBox, JsonLogger, ReadModels, Followers],
          useFactory: (events: EventStore, registry: EventRegistry, box: SecretBox, logger: JsonLogger, readModels: ReadModels, followers: Followers) =>
            registerView(new SigningKeyRing(events, registry, box, logger), SigningKeyRing.readModel, readModels, followers),
        },
        { provide: CertificateSigner, inject: [SigningKeyRing], useFactory: (ring: SigningKeyRing) => new CertificateSigner(ring) },
        // Monitoring's consent receipts are signed with these keys, through the port it publishes (docs/adr/0032, 0064).
        {
          provide: CONSENT_RECEIPT_SIGNER,
          inject: [CertificateSigner, CONFIG],
          useFactory: (signer: CertificateSigner, config: Config): ConsentReceiptSigner => ({ issuer: config.publicBaseUrl, sign: (claims, typ) => signer.sign(claims, typ) }),
        },
        { provide: IdentityHashing, inject: [DATA_KEY_VAULT], useFactory: (vault: DataKeyVault) => IdentityHashing.open(vault) },
        // Identity's fixes are sealed under the customer's data key, the one erasure destroys (ADR 0054).
        { provide: IdentitySealing, inject: [DATA_KEY_VAULT], useFactory: (vault: DataKeyVault) => IdentitySealing.open(vault) },
        // KYC's evidence, and velocity's recorded pings, are the pings monitoring recorded, read through its CustomerLocations port.
        { provide: LOCATION_EVIDENCE, inject: [CUSTOMER_LOCATIONS], useFactory: (locations: CustomerLocations): LocationEvidence => locations },
        {
          provide: FRAUD_SIGNALS,
          inject: [READ_STORE, IdentitySealing, LOCATION_EVIDENCE],
          useFactory: (readStore: ReadStore, sealing: IdentitySealing, evidence: LocationEvidence) => new ReadModelFraudSignals(readStore, sealing, evidence),
        },
        VerifyProximityHandler,
        VerifyKycHandler,
        ConfirmDeliveryHandler,
        RecordRotationHandler,
        RotateSigningKeysHandler,
        EnsureSigningKeyHandler,
        GetJwksHandler,
        SigningKeysBootstrap,
        // Banking's re-verification by customer asks for the latest verified address through this port.
        {
          provide: VERIFIED_ADDRESSES,
          inject: [EVENT_STORE, DATA_KEY_VAULT],
          useFactory: (events: EventStore, vault: DataKeyVault): VerifiedAddresses => ({
            lastVerifiedAddressCode: (accountId, customerId) => lastVerifiedAddressCode(events, vault, accountId, customerId),
          }),
        },
      ],
      exports: [FRAUD_SIGNALS, SigningKeyRing, CONSENT_RECEIPT_SIGNER, VERIFIED_ADDRESSES],
      // Global, so MonitoringModule resolves CONSENT_RECEIPT_SIGNER, and banking VERIFIED_ADDRESSES, without importing identity (docs/adr/0064, 0066).
      global: true,
    };
  }
}
