import { SealedFields, SealedSecretError, type CodecSession, type DataKeyVault, type NewEvent, type RecordedEvent, type StreamCodec } from '../../../platform/src/index.js';
import type { ConsentState } from '../domain/consent.js';
import { ConsentRecordSealing } from './consent-record-sealing.js';

/** A grant's proof as stored since issue 47: its kind in the clear, its reference sealed under the consent-record key. */
interface SealedProof {
  kind: string;
  key_id: string;
  sealed: string;
}

function isSealedProof(value: unknown): value is SealedProof {
  const proof = value as Partial<SealedProof> | null | undefined;
  return typeof proof === 'object' && proof !== null && typeof proof.sealed === 'string' && typeof proof.key_id === 'string';
}

const GRANTED = 'ConsentGranted';

/**
 * The codec under the consent streams (docs/adr/0055): a grant's proof
 * reference (an OTP reference, a device signature: what ties the consent to
 * the customer's phone) is stored sealed under the customer's consent-record
 * key (docs/adr/0032, subject `consent-record|<account>|<pseudonym>`), which
 * POST /v2/consent/delete-data destroys with their data key. Before the
 * erasure every reader through the codec sees the grant as decided (the
 * status, receipts, the customer's copy); after it, the grant opens without
 * its proof, and every stored copy of the reference (the log, freed pages,
 * Kafka) is noise. Grants stored before, or without a pseudonym (records not
 * yet sealed), keep their proof as stored. Nothing else of the grant is sealed:
 * the consent history stays readable (docs/guides/monitoring.md, "What
 * survives erasure").
 */
export class ConsentProofCodec implements StreamCodec<ConsentState> {
  private readonly fields = new SealedFields();

  constructor(private readonly vault: DataKeyVault) {}

  session(stream: string): CodecSession<ConsentState> {
    return { open: (event) => this.open(event), seal: (event) => this.seal(stream, event) };
  }

  /** The stored form of a decided event: a grant's proof reference sealed (the record key exists: the grant's prepare obtained it). */
  async seal(stream: string, event: NewEvent): Promise<NewEvent> {
    const data = event.data;
    const proof = data.proof as { kind: string; reference: string } | undefined;
    if (event.type !== GRANTED || !proof || typeof data.pseudonym !== 'string') return event;
    const key = await this.vault.obtain(ConsentRecordSealing.subject(String(data.account_id), data.pseudonym));
    const sealed: SealedProof = { kind: proof.kind, key_id: key.id, sealed: this.fields.sealValue(key, context(stream), proof.reference) };
    return { ...event, data: { ...data, proof: sealed } };
  }

  /** The event as decided; a grant whose record key was destroyed opens without its proof (never left out: the history stays). */
  async open(event: RecordedEvent): Promise<RecordedEvent> {
    const { proof, ...rest } = event.data;
    if (event.type !== GRANTED || !isSealedProof(proof) || typeof rest.pseudonym !== 'string') return event;
    const key = await this.vault.find(ConsentRecordSealing.subject(String(rest.account_id), rest.pseudonym), proof.key_id);
    if (!key) return { ...event, data: rest };
    try {
      return { ...event, data: { ...rest, proof: { kind: proof.kind, reference: this.fields.openValue<string>(key, context(event.streamName), proof.sealed) } } };
    } catch (error) {
      if (error instanceof SealedSecretError) return { ...event, data: rest };
      throw error;
    }
  }
}

function context(stream: string): string {
  return `${SealedFields.context(stream, GRANTED)}|proof`;
}
