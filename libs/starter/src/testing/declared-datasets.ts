import { placesManifest } from '../../../places/src/index.js';
import type { FileDatasetStore } from '../../../platform/src/index.js';
import { routingManifest } from '../../../routing/src/index.js';
import { transitManifest } from '../../../transit/src/index.js';
import type { StarterImportOptions } from '../first-start.js';

/** The datasets the service's contexts declare, as the running service hands them to the first start. */
export const DECLARED_DATASETS = [placesManifest, transitManifest, routingManifest].flatMap((manifest) => manifest.datasets ?? []);

/** What the first start needs besides its log: the declared datasets, and the store's own folder for its lock. */
export function declaredFor(store: FileDatasetStore): Pick<StarterImportOptions, 'datasets' | 'lockDir'> {
  return { datasets: DECLARED_DATASETS, lockDir: store.root };
}
