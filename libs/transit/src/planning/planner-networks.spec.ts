import type { DatasetVersion } from '../../../platform/src/index.js';
import type { TransitNetwork } from '../domain/network.js';
import { PlannerNetworks } from './planner-networks.js';

/** A planner thread's networks: compiled once per live version, dropped when no longer live; compile counted per version. */
const version = (name: string): DatasetVersion => ({ dataset: 'transit/gtfs', version: name, directory: `/nowhere/${name}`, manifest: {} as DatasetVersion['manifest'] });
function networks(failing: string[] = []) {
  const compiled: string[] = [];
  const held = new PlannerNetworks(async (source) => {
    compiled.push(source.version);
    if (failing.includes(source.version)) throw new Error(`${source.version} is corrupt`);
    return { name: source.version } as unknown as TransitNetwork;
  });
  return { held, compiled };
}

describe("a planner thread's networks", () => {
  it('compiles each live version as soon as it is named, once, and drops those no longer live', async () => {
    const { held, compiled } = networks();
    held.keep([version('v1')]);
    expect(compiled).toEqual(['v1']);
    expect(await held.network(version('v1'))).toEqual({ name: 'v1' });
    held.keep([version('v1'), version('v2')]);
    expect(compiled).toEqual(['v1', 'v2']);
    held.keep([version('v2')]);
    expect(held.versions).toEqual(['transit/gtfs@v2']);
    await held.network(version('v2'));
    expect(compiled).toEqual(['v1', 'v2']);
  });

  it('compiles a version no longer live for the request that names it, without keeping it', async () => {
    const { held, compiled } = networks();
    held.keep([version('v2')]);
    expect(await held.network(version('v1'))).toEqual({ name: 'v1' });
    await held.network(version('v1'));
    expect(compiled).toEqual(['v2', 'v1', 'v1']);
    expect(held.versions).toEqual(['transit/gtfs@v2']);
  });

  it('keeps what it compiles before it is told which versions are live', async () => {
    const { held, compiled } = networks();
    await held.network(version('v1'));
    await held.network(version('v1'));
    expect(compiled).toEqual(['v1']);
  });

  it('does not keep a failed compilation: the next request tries again', async () => {
    const { held, compiled } = networks(['bad']);
    held.keep([version('bad')]);
    await expect(held.network(version('bad'))).rejects.toThrow('bad is corrupt');
    expect(held.versions).toEqual([]);
    await expect(held.network(version('bad'))).rejects.toThrow('bad is corrupt');
    expect(compiled).toEqual(['bad', 'bad']);
  });
});
