import { readFile, stat } from 'node:fs/promises';
import { MAX_CAP_BYTES } from '../cap/parse-cap.js';
import { AlertLog } from './alert-log.js';
import { importAlerts } from './import-alerts.js';

/** `npm run ops -- weather:import FILE…`: CAP 1.2 files into the alert log. Exit code 0 when every file went in (or was there already), 1 otherwise. */
export async function weatherImportCli(dataDir: string, files: string[], out: (line: string) => void): Promise<number> {
  if (files.length === 0) {
    out('weather:import: name at least one CAP file');
    return 64;
  }
  const documents: Array<{ source: string; xml: string }> = [];
  const rejected: Array<{ source: string; reason: string }> = [];
  for (const file of files) {
    try {
      if ((await stat(file)).size > MAX_CAP_BYTES) throw new Error(`larger than ${MAX_CAP_BYTES} bytes`);
      documents.push({ source: file, xml: await readFile(file, 'utf8') });
    } catch (error) {
      rejected.push({ source: file, reason: (error as Error).message });
    }
  }
  const outcome = importAlerts(AlertLog.in(dataDir), documents);
  rejected.push(...outcome.rejected);
  out(`weather:import: ${outcome.accepted} alert(s) added, ${outcome.duplicates} already known, ${rejected.length} refused`);
  for (const refusal of rejected) out(`  refused ${refusal.source}: ${refusal.reason}`);
  return rejected.length === 0 ? 0 : 1;
}
