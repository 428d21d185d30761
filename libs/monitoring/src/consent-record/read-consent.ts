import type { CommandPipeline } from '../../../platform/src/index.js';
import { consentDecider, consentStream, type ConsentState } from '../domain/consent.js';
import { ConsentProofCodec } from './consent-proof-codec.js';

/**
 * A customer's consent, folded from its stream as a command would see it:
 * one short stream per customer, so no read model (a projection comes with
 * list endpoints). Location commands call it from their `prepare`, after
 * reading their own stream (ADR 12, "Ordering against a revoke").
 */
export async function readConsent(commands: CommandPipeline, accountId: string, customerId: string): Promise<ConsentState> {
  const { state } = await commands.read(consentReader, consentStream(accountId, customerId));
  return state;
}

/** The consent stream as every command reads it: through the codec that opens a grant's sealed proof (docs/adr/0055). */
const consentReader = { decider: consentDecider, inject: { proofs: ConsentProofCodec }, codec: ({ proofs }: { proofs: ConsentProofCodec }) => proofs };
