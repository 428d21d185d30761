import { checkManifests, ManifestError, type ContextManifest } from '../manifest/context-manifest.js';
import { datasetGroup, type DatasetDeclaration } from './dataset-declaration.js';

const importer: DatasetDeclaration['import'] = async () => {
  throw new Error('not run');
};
const declare = (dataset: string, command: string, kind?: string): DatasetDeclaration => ({ dataset, import: importer, cli: { command, usage: 'FILE' }, starter: kind ? { kind } : undefined });
const context = (name: string, datasets: DatasetDeclaration[]): ContextManifest => ({ name, events: [], datasets });

describe('datasets declared in manifests', () => {
  it('tells a group (`places/*`) from a single dataset', () => {
    expect(datasetGroup({ dataset: 'places/*' })).toBe('places');
    expect(datasetGroup({ dataset: 'roads' })).toBeNull();
  });

  it('accepts several importers of one group in one context', () => {
    expect(() => checkManifests([context('places', [declare('places/*', 'import:geonames', 'places'), declare('places/*', 'import:osm', 'landmarks')])], [])).not.toThrow();
  });

  it('refuses a dataset kept by two contexts, an import command or a starter kind declared twice', () => {
    const check = () => checkManifests([context('a', [declare('roads', 'import:roads', 'roads')]), context('b', [declare('roads', 'import:roads', 'roads')])], []);
    expect(check).toThrow(ManifestError);
    expect(check).toThrow(/dataset roads is declared by a and b/);
    expect(check).toThrow(/import command import:roads is declared by a and b/);
    expect(check).toThrow(/starter kind roads is declared by a and b/);
  });
});
