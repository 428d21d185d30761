import type { AnyCommandDefinition, ReadModelAwait } from '../commands/command.js';
import { awaitedReadModel } from '../commands/command.js';
import { EventRegistry, type EventTypeDefinition } from '../events/event-registry.js';
import type { Projection } from '../projections/projection.js';
import type { AsOfContributor } from './as-of-contribution.js';
import type { DatasetDeclaration } from '../reference/dataset-declaration.js';

/** A notification source as the webhooks context reads it from a manifest: its Nest token and what it claims. */
export interface NotificationSourceEntry {
  /** Nest token of the source's implementation. */
  token: unknown;
  /** Webhook event types it produces (each produced by exactly one source). */
  notifies: readonly string[];
  /** Stored event types it turns into notifications (each must be registered). */
  from: readonly string[];
}

/**
 * What one bounded context brings to the process, declared in one place
 * (`libs/<context>/src/manifest.ts`) and checked at start-up the way immich's
 * job repository refuses a missing or duplicate handler: every stored event
 * type with its version and upcaster, every command, the read models it owns
 * (projections in `projections/`, or in-memory views it registers), the queues
 * it processes, the webhook notifications it contributes, and the reference
 * datasets it keeps.
 */
export interface ContextManifest {
  name: string;
  events: readonly EventTypeDefinition[];
  // The commands of every slice; their `awaits` must name read models that exist.
  commands?: readonly AnyCommandDefinition[];
  /** The query classes of every query slice (each dispatched by QueryBus to its slice's @QueryHandler). */
  queries?: readonly QueryClass[];
  /** Projections (by name, the objects live in `projections/`) and views this context owns. */
  readModels?: { projections?: readonly string[]; views?: readonly string[] };
  /** Queues this context processes (exactly one processor per queue across the process). */
  jobs?: readonly string[];
  notifications?: readonly NotificationSourceEntry[];
  /**
   * The context's part of an account as of an instant (docs/adr/0023): which
   * of its streams belong to an account, how each is folded and shown. The
   * compliance context replays every manifest's contributions; each name is a
   * key of the answer's `state`, so names are unique across contexts.
   */
  asOf?: readonly AsOfContributor[];
  /** Reference datasets it keeps (docs/adr/0011): each with its importer, its `npm run ops` command and its starter pack kind. */
  datasets?: readonly DatasetDeclaration[];
}

/** A query class as a manifest lists it (`class GetDriftQuery extends Query<DriftView>`). */
export type QueryClass = abstract new (...args: never[]) => object;

export class ManifestError extends Error {}

/** Builds the event registry from every context's manifest; a type registered twice is refused. */
export function registryOf(manifests: readonly ContextManifest[]): EventRegistry {
  const registry = new EventRegistry();
  for (const manifest of manifests) {
    try {
      registry.register(...manifest.events);
    } catch (error) {
      throw new ManifestError(`context ${manifest.name}: ${(error as Error).message}`);
    }
  }
  return registry;
}

/**
 * The start-up check: contexts unique; every projection claimed by exactly one
 * context and handling registered types; every command name unique and
 * awaiting known read models; each queue with exactly one processor; each
 * webhook event type with exactly one source reading registered types; each
 * reference dataset kept by one context; each import command and starter kind declared once.
 */
export function checkManifests(manifests: readonly ContextManifest[], projections: readonly Projection[]): void {
  const registry = registryOf(manifests);
  const problems: string[] = [];
  const once = (what: string, owners: Map<string, string[]>) => {
    for (const [name, by] of owners) if (by.length > 1) problems.push(`${what} ${name} is declared by ${by.join(' and ')}`);
  };
  const collect = (pick: (manifest: ContextManifest) => readonly string[] | undefined) => {
    const owners = new Map<string, string[]>();
    for (const manifest of manifests) for (const name of pick(manifest) ?? []) owners.set(name, [...(owners.get(name) ?? []), manifest.name]);
    return owners;
  };
  once('context', collect((manifest) => [manifest.name]));

  const projectionOwners = collect((manifest) => manifest.readModels?.projections);
  const viewOwners = collect((manifest) => manifest.readModels?.views);
  once('projection', projectionOwners);
  once('view', viewOwners);
  for (const projection of projections) {
    if (!projectionOwners.has(projection.name)) problems.push(`projection ${projection.name} is claimed by no context manifest`);
    const unknown = projection.handles.filter((type) => !registry.has(type));
    if (unknown.length > 0) problems.push(`projection ${projection.name} handles unregistered event types: ${unknown.join(', ')}`);
  }
  for (const name of projectionOwners.keys()) {
    if (!projections.some((projection) => projection.name === name)) problems.push(`projection ${name} is declared by ${projectionOwners.get(name)!.join(', ')} but not in projections/`);
  }

  const readModels = new Set([...projectionOwners.keys(), ...viewOwners.keys()]);
  once('command', collect((manifest) => manifest.commands?.map((definition) => definition.name)));
  for (const manifest of manifests) {
    for (const definition of manifest.commands ?? []) {
      const awaits = (definition.awaits ?? []) as readonly ReadModelAwait[];
      const missing = awaits.map(awaitedReadModel).filter((name) => !readModels.has(name));
      if (missing.length > 0) problems.push(`command ${definition.name} waits for unknown read models: ${missing.join(', ')}`);
    }
  }

  once('queue processor for', collect((manifest) => manifest.jobs));

  // Several importers may write one dataset group (GeoNames and OSM both write `places/*`), all of one context.
  once('dataset', collect((manifest) => [...new Set(manifest.datasets?.map((declaration) => declaration.dataset))]));
  once('import command', collect((manifest) => manifest.datasets?.map((declaration) => declaration.cli.command)));
  once('starter kind', collect((manifest) => manifest.datasets?.flatMap((declaration) => (declaration.starter ? [declaration.starter.kind] : []))));

  const notifies = collect((manifest) => manifest.notifications?.flatMap((entry) => entry.notifies));
  once('webhook event type', notifies);
  for (const manifest of manifests) {
    for (const entry of manifest.notifications ?? []) {
      const unknown = entry.from.filter((type) => !registry.has(type));
      if (unknown.length > 0) problems.push(`context ${manifest.name} notifies from unregistered event types: ${unknown.join(', ')}`);
    }
  }
  if (problems.length > 0) throw new ManifestError(`the contexts do not fit together:\n- ${problems.join('\n- ')}`);
}

/** Nest token of the process's manifests (the webhooks context reads the notification sources from them). */
export const CONTEXT_MANIFESTS = Symbol('ContextManifests');
