import { Module } from '@nestjs/common';
import { EVENT_STORE, EventRegistry, JsonLogger, SecretBox, type EventStore } from '../../../platform/src/index.js';
import { RingSigningKeys } from './ring-signing-keys.js';
import { SIGNING_KEYS, type SigningKeys } from './signing-keys.port.js';

/**
 * The SigningKeys port for the contexts that sign with the service's keys or
 * check what they signed (compliance's checkpoints, exports and customers'
 * copies; docs/adr/0065), in any role: one key ring per process however many
 * modules import it. Generating the first key and rotating stay with
 * IdentityModule.
 */
@Module({
  providers: [
    {
      provide: SIGNING_KEYS,
      inject: [EVENT_STORE, EventRegistry, SecretBox, JsonLogger],
      useFactory: (events: EventStore, registry: EventRegistry, box: SecretBox, logger: JsonLogger): SigningKeys => new RingSigningKeys(events, registry, box, logger),
    },
  ],
  exports: [SIGNING_KEYS],
})
export class SigningKeysModule {}
