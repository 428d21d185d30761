import { parentPort } from 'node:worker_threads';
import { CapError } from './parse-cap.js';
import { readCap } from '../public/read-cap.js';
import { CapSignatureError } from './verify-signature.js';

/** Worker thread entry (cap-reader.ts): reads one CAP document per message, so the api's event loop never parses, validates or canonicalizes. */
parentPort!.on('message', ({ id, xml }: { id: number; xml: string }) => {
  try {
    parentPort!.postMessage({ id, alert: readCap(xml) });
  } catch (error) {
    const kind = error instanceof CapSignatureError ? 'signature' : error instanceof CapError ? 'cap' : 'other';
    parentPort!.postMessage({ id, error: (error as Error).message, kind });
  }
});
