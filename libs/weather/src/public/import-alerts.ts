import { CapError, type CapAlert } from '../cap/parse-cap.js';
import { readCap } from './read-cap.js';
import type { AlertRecorder } from './alert-log.js';

export interface ImportOutcome {
  accepted: number;
  duplicates: number;
  rejected: Array<{ source: string; reason: string }>;
}

/**
 * Reads CAP documents and records the valid ones (one record-alerts command);
 * a document that fails validation or its signature is refused and reported
 * (and logged by the caller), the others still go in.
 */
export async function importAlerts(recorder: AlertRecorder, documents: Array<{ source: string; xml: string }>): Promise<ImportOutcome> {
  const accepted: CapAlert[] = [];
  const rejected: ImportOutcome['rejected'] = [];
  for (const document of documents) {
    try {
      accepted.push(readCap(document.xml));
    } catch (error) {
      if (!(error instanceof CapError)) throw error;
      rejected.push({ source: document.source, reason: error.message });
    }
  }
  const fresh = await recorder.record(accepted);
  return { accepted: fresh, duplicates: accepted.length - fresh, rejected };
}
