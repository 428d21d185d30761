import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler, SecretBox } from '../../../../platform/src/index.js';
import { needsCandidate, SIGNING_KEYS_STREAM, signingKeysDecider, type SigningKeyCommand, type SigningKeyEvent, type SigningKeysState } from '../../domain/signing-keys.js';
import { SigningKeyRing } from '../../public/signing-key-ring.js';
import { newSigningKey } from '../../signing/signing-key-material.js';

/**
 * First start: a signing key is generated when the stream has none. Two
 * processes starting at once both expect `no_stream`; the loser's append
 * conflicts, its retry reads the winner's key and decides nothing, so all
 * converge on one active key.
 */
export const ensureSigningKey = command<SigningKeyCommand, SigningKeysState, SigningKeyEvent, { box: SecretBox }>({
  name: 'identity.ensure-signing-key',
  stream: () => SIGNING_KEYS_STREAM,
  decider: signingKeysDecider,
  inject: { box: SecretBox },
  prepare: async (input, loaded, { box }) => (needsCandidate(input, loaded.state) ? { ...input, candidate: await newSigningKey(box) } : input),
  onConflict: { retry: 3 },
  // The first certificate is signed with it: the ring must hold it before start-up goes on.
  awaits: [SigningKeyRing.readModel],
});

export class EnsureSigningKeyCommand extends PipelineCommand<SigningKeyCommand, SigningKeysState, SigningKeyEvent> {}

@CommandHandler(EnsureSigningKeyCommand)
export class EnsureSigningKeyHandler extends PipelineHandler<SigningKeyCommand, SigningKeysState, SigningKeyEvent, { box: SecretBox }> {
  protected readonly definition = ensureSigningKey;
}
