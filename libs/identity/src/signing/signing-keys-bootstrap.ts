import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandPipeline } from '../../../platform/src/index.js';
import { ensureSigningKey } from '../commands/ensure-signing-key/ensure-signing-key.handler.js';
import { SigningKeyRing } from './signing-key-ring.js';

/** Before the first request: the key ring has read the log, and a signing key exists (generated on first start). */
@Injectable()
export class SigningKeysBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly ring: SigningKeyRing,
    private readonly commands: CommandPipeline,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ring.start();
    await this.commands.run(ensureSigningKey, { type: 'EnsureSigningKey' });
  }
}
