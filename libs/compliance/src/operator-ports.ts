import { randomBytes } from 'node:crypto';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AUDIT_TRAIL, AuditTrailModule, type AuditTrail } from '../../audit/src/index.js';
import { SIGNING_KEYS, SigningKeysModule, type SigningKeys } from '../../identity/src/index.js';
import { CONFIG, EVENT_STORE, EventRegistry, JsonLogger, PROCESS_ROLE, SecretBox, type OperatorRuntime, type ProcessRole } from '../../platform/src/index.js';

/** What the operator's audit commands use of the audit and identity contexts: their ports, as the service has them. */
export interface AuditPorts {
  trail: AuditTrail;
  keys: SigningKeys;
}

/** The platform's part of the operator's container: the CLI's backends under the tokens the contexts' modules inject. */
@Module({})
class OperatorPlatform {}

@Module({})
class OperatorAuditPorts {}

/**
 * Runs `use` with the AuditTrail and the SigningKeys resolved the way a
 * service process resolves them (docs/adr/0065): a Nest application context
 * of the two contexts' published modules over the CLI's backends, in the
 * `ops` role (the trail then settles a stopped api process's journal), closed
 * afterwards (the key ring stops). `sign`: the command signs, so the keys are
 * opened with the service's DATA_ENCRYPTION_KEY (or DATA_DIR's key file);
 * otherwise the command only checks signatures against the JWKS, and the box
 * it gets opens nothing (no key file is created for a read-only command).
 */
export async function withAuditPorts<T>(runtime: OperatorRuntime, options: { sign: boolean }, use: (ports: AuditPorts) => Promise<T>): Promise<T> {
  const { config } = runtime;
  const box = options.sign ? await SecretBox.fromConfig({ dataEncryptionKey: config.dataEncryptionKey, dataDir: config.dataDir }) : SecretBox.fromKey(randomBytes(32));
  const providers = [
    { provide: PROCESS_ROLE, useValue: 'ops' satisfies ProcessRole },
    { provide: CONFIG, useValue: config },
    { provide: EVENT_STORE, useValue: runtime.backends.events },
    { provide: EventRegistry, useValue: runtime.registry },
    { provide: SecretBox, useValue: box },
    // stdout carries the commands' answers (an export bundle): the key ring's rare complaints go to stderr.
    { provide: JsonLogger, useValue: new JsonLogger('warn', process.stderr) },
  ];
  const platform: DynamicModule = { module: OperatorPlatform, global: true, providers, exports: providers.map((provider) => provider.provide) };
  const app = await NestFactory.createApplicationContext({ module: OperatorAuditPorts, imports: [platform, AuditTrailModule, SigningKeysModule] }, { logger: false, abortOnError: false });
  try {
    return await use({ trail: app.get<AuditTrail>(AUDIT_TRAIL), keys: app.get<SigningKeys>(SIGNING_KEYS) });
  } finally {
    await app.close();
  }
}
