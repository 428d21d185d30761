import { SecretBox, systemClock, type OperatorCommand } from '../../platform/src/index.js';
import { rotateSigningKeysFromCli } from './commands/rotate-signing-keys/rotate-signing-keys.handler.js';

/** The operator's identity commands. */
export const identityCli: Readonly<Record<string, OperatorCommand>> = {
  'signing-keys:rotate': {
    usage: 'signing-keys:rotate   (a new key signs certificates and receipts; the old one stays in the JWKS)',
    // The same event as POST /v2/admin/signing-keys/rotate; private keys are sealed with DATA_ENCRYPTION_KEY as the service does.
    run: async (runtime) => {
      const { config } = runtime;
      const secretBox = await SecretBox.fromConfig({ dataEncryptionKey: config.dataEncryptionKey, dataDir: config.dataDir });
      const result = await rotateSigningKeysFromCli({ events: runtime.backends.events, registry: runtime.registry, secretBox, clock: systemClock, rotatedBy: 'ops:cli', waitMs: config.projectionWaitMs });
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return 0;
    },
  },
};
