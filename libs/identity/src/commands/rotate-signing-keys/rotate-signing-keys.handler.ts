import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler, ReadModels, SecretBox, withOperatorBus, type Clock, type EventRegistry, type EventStore } from '../../../../platform/src/index.js';
import { SIGNING_KEYS_STREAM, signingKeysDecider, type SigningKeyCommand, type SigningKeyEvent, type SigningKeysState } from '../../domain/signing-keys.js';
import { newSigningKey } from '../../signing/signing-key-material.js';
import { SigningKeyRing } from '../../public/signing-key-ring.js';

/**
 * POST /v2/admin/signing-keys/rotate and `npm run ops -- signing-keys:rotate`:
 * a new key signs from now on, the old one retires and stays in the JWKS.
 */
export const rotateSigningKeys = command<SigningKeyCommand, SigningKeysState, SigningKeyEvent, { box: SecretBox }>({
  name: 'identity.rotate-signing-keys',
  stream: () => SIGNING_KEYS_STREAM,
  decider: signingKeysDecider,
  inject: { box: SecretBox },
  prepare: async (input, _loaded, { box }) => ({ ...input, candidate: await newSigningKey(box) }),
  // Not retried: a rotation must not be repeated. Two operators rotating at once get one
  // rotation and one 409; re-deciding the loser would rotate a second time.
  onConflict: { retry: 0 },
  // New artefacts must be signed with the new key as soon as the rotation is acknowledged.
  awaits: [SigningKeyRing.readModel],
});

/** What a rotation answers (the admin endpoint, the CLI): which key signs now, which retired, every key's status. */
export function rotationAnswer(events: readonly SigningKeyEvent[], ring: Pick<SigningKeyRing, 'summary'>) {
  const generated = events.find((event) => event.type === 'SigningKeyGenerated');
  const rotated = events.find((event) => event.type === 'SigningKeyRotated');
  if (!generated) throw new Error('a rotation generated no key');
  return { active_kid: generated.data.kid, retired_kid: rotated?.data.from_kid ?? null, rotated_at: generated.data.generated_at, keys: ring.summary().keys };
}

export type RotationAnswer = ReturnType<typeof rotationAnswer>;

/** The rotation's record, as the admin endpoint's handler dispatches it. */
export class RecordRotationCommand extends PipelineCommand<SigningKeyCommand, SigningKeysState, SigningKeyEvent> {}

@CommandHandler(RecordRotationCommand)
export class RecordRotationHandler extends PipelineHandler<SigningKeyCommand, SigningKeysState, SigningKeyEvent, { box: SecretBox }> {
  protected readonly definition = rotateSigningKeys;
}

/** POST /v2/admin/signing-keys/rotate; `rotatedBy` names the operator's key. */
export class RotateSigningKeysCommand extends Command<RotationAnswer> {
  constructor(readonly rotatedBy: string) {
    super();
  }
}

/** Dispatches the rotation and answers with this process's ring, which the command waited for. */
@CommandHandler(RotateSigningKeysCommand)
export class RotateSigningKeysHandler implements ICommandHandler<RotateSigningKeysCommand, RotationAnswer> {
  constructor(
    private readonly commands: CommandBus,
    private readonly ring: SigningKeyRing,
  ) {}

  async execute({ rotatedBy }: RotateSigningKeysCommand): Promise<RotationAnswer> {
    const { events } = await this.commands.execute(new RecordRotationCommand({ type: 'RotateSigningKeys', rotated_by: rotatedBy }));
    return rotationAnswer(events, this.ring);
  }
}

/**
 * The rotation outside the service (`npm run ops -- signing-keys:rotate`):
 * the same command on the operator bus, to the same handlers, with a key
 * ring of its own to wait for. Running services pick the new key up through
 * their own rings.
 */
export async function rotateSigningKeysFromCli(options: { events: EventStore; registry: EventRegistry; secretBox: SecretBox; clock: Clock; rotatedBy: string; waitMs: number }): Promise<RotationAnswer> {
  const ring = new SigningKeyRing(options.events, options.registry, options.secretBox);
  await ring.start();
  try {
    return await withOperatorBus(
      {
        events: options.events,
        registry: options.registry,
        clock: options.clock,
        waitMs: options.waitMs,
        readModels: new ReadModels().register(SigningKeyRing.readModel, ring.follower),
        providers: [{ provide: SecretBox, useValue: options.secretBox }, { provide: SigningKeyRing, useValue: ring }, RecordRotationHandler, RotateSigningKeysHandler],
      },
      (commands) => commands.execute(new RotateSigningKeysCommand(options.rotatedBy)),
    );
  } finally {
    await ring.onModuleDestroy();
  }
}
