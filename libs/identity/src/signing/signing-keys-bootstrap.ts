import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { EnsureSigningKeyCommand } from '../commands/ensure-signing-key/ensure-signing-key.handler.js';
import { SigningKeyRing } from '../public/signing-key-ring.js';

/** Before the first request: the key ring has read the log, and a signing key exists (generated on first start). */
@Injectable()
export class SigningKeysBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly ring: SigningKeyRing,
    private readonly commands: CommandBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ring.start();
    await this.commands.execute(new EnsureSigningKeyCommand({ type: 'EnsureSigningKey' }));
  }
}
