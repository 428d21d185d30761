import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';

/** docker-compose.yml as Docker Compose reads it (merge keys applied), for the specs that check or reuse it. */
export const root = path.resolve(import.meta.dirname, '../..');
export const composeText = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');

export interface ComposeService {
  environment?: Record<string, string | number>;
  healthcheck?: { test: string[] };
  volumes?: string[];
  command?: string[];
}

/** YAML merge keys (`<<: *anchor`), as Docker Compose applies them; js-yaml 5 leaves them as a `<<` entry. */
function resolveMerges(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolveMerges);
  if (value === null || typeof value !== 'object') return value;
  const { '<<': merged, ...own } = value as Record<string, unknown>;
  const bases = merged === undefined ? [] : Array.isArray(merged) ? merged : [merged];
  const result: Record<string, unknown> = {};
  for (const base of bases) Object.assign(result, resolveMerges(base));
  for (const [key, entry] of Object.entries(own)) result[key] = resolveMerges(entry);
  return result;
}

export const compose = resolveMerges(load(composeText)) as { services: Record<string, ComposeService> };

/** Compose's interpolation: `${NAME:?message}`, `${NAME:-default}`, `${NAME}`, from `values`. */
export function interpolate(value: string | number, values: Record<string, string>): string {
  return String(value).replace(/\$\{([A-Z0-9_]+)(?::([?-])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => values[name] ?? (kind === '-' ? rest! : ''));
}

/** A service's environment with its `${…}` filled from `values`. */
export function composeEnvironment(service: string, values: Record<string, string>): Record<string, string> {
  const environment = compose.services[service]?.environment ?? {};
  return Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, interpolate(value, values)]));
}
