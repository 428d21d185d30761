/**
 * The one contract every DatasetStore adapter passes (style guide: "one
 * contract suite per port, run against every adapter of that port"): versions
 * switched atomically, the previous one kept, nothing visible before commit or
 * after a failure, names checked. Every test works on its own randomly named
 * datasets, so the suite holds against a store other tests use too.
 *
 * Jest globals are imported explicitly so this file type-checks in the build
 * config too (which has no jest types), although only *.int-spec.ts files use it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { DatasetStore } from './dataset-store.port.js';

const details = { sources: ['contract'], attribution: ['© contract'], stats: { n: 1 } };

export function describeDatasetStoreContract(name: string, open: () => Promise<DatasetStore>, cleanup?: () => Promise<void>): void {
  describe(`DatasetStore contract: ${name}`, () => {
    let store: DatasetStore;
    /** A fresh group per test: `ct<random>` (a group, or a one-segment dataset). */
    const fresh = () => `ct${randomBytes(4).toString('hex')}`;

    beforeAll(async () => {
      store = await open();
    });

    afterAll(async () => {
      await cleanup?.();
    });

    async function commit(dataset: string, records: unknown[]) {
      const writer = await store.begin(dataset);
      for (const record of records) await writer.write(record);
      return writer.commit(details);
    }

    async function readAll(dataset: string): Promise<unknown[]> {
      const current = await store.current(dataset);
      if (!current) throw new Error(`${dataset} has no live version`);
      const records: unknown[] = [];
      for await (const record of store.records(current)) records.push(record);
      return records;
    }

    it('makes a version live only at commit, with its manifest, records in order, and the pointer', async () => {
      const dataset = `${fresh()}/one`;
      const writer = await store.begin(dataset);
      writer.add({ n: 1 });
      await writer.write({ n: 2, text: 'Kumasi – Asante' });
      await writer.flushIfFull();
      expect(writer.records).toBe(2);
      expect(await store.current(dataset)).toBeNull();
      expect(await store.currentVersion(dataset)).toBeNull();

      const version = await writer.commit(details);
      expect(version.version).toMatch(/^v\d{8}T\d{9}Z-[0-9a-f]{6}$/);
      expect(version.manifest).toMatchObject({ format: 1, dataset, version: version.version, records: 2, sources: ['contract'], attribution: ['© contract'], stats: { n: 1 } });
      expect(version.manifest.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(await store.currentVersion(dataset)).toBe(version.version);
      expect(await store.current(dataset)).toMatchObject({ dataset, version: version.version, manifest: version.manifest });
      expect(await readAll(dataset)).toEqual([{ n: 1 }, { n: 2, text: 'Kumasi – Asante' }]);
    });

    it('switches to each new version and keeps the current and the previous one only', async () => {
      const dataset = fresh();
      const first = await commit(dataset, [{ n: 1 }]);
      const second = await commit(dataset, [{ n: 2 }]);
      const third = await commit(dataset, [{ n: 3 }, { n: 4 }]);
      expect(await readAll(dataset)).toEqual([{ n: 3 }, { n: 4 }]);
      const versions = (await store.list()).filter((entry) => entry.dataset === dataset);
      expect(versions.map((entry) => [entry.version, entry.current]).sort()).toEqual(
        [
          [second.version, false],
          [third.version, true],
        ].sort(),
      );
      expect(versions.map((entry) => entry.version)).not.toContain(first.version);
      expect(versions.find((entry) => entry.current)?.manifest?.records).toBe(2);
    });

    it('still reads the previous version after a switch (a reader that had started on it finishes)', async () => {
      const dataset = fresh();
      const old = await commit(dataset, [{ n: 1 }, { n: 2 }]);
      await commit(dataset, [{ n: 3 }]);
      const records: unknown[] = [];
      for await (const record of store.records(old)) records.push(record);
      expect(records).toEqual([{ n: 1 }, { n: 2 }]);
    });

    it('leaves the previous version live when the commit fails before the switch', async () => {
      const dataset = fresh();
      const live = await commit(dataset, [{ n: 1 }]);
      const writer = await store.begin(dataset);
      await writer.write({ n: 2 });
      await expect(writer.commit(details, async () => Promise.reject(new Error('power cut')))).rejects.toThrow('power cut');
      expect(await store.currentVersion(dataset)).toBe(live.version);
      expect(await readAll(dataset)).toEqual([{ n: 1 }]);
      // The next import goes through as usual.
      await commit(dataset, [{ n: 3 }]);
      expect(await readAll(dataset)).toEqual([{ n: 3 }]);
    });

    it('shows nothing of an aborted import, before or after a first version', async () => {
      const dataset = fresh();
      const never = await store.begin(dataset);
      await never.write({ n: 0 });
      await never.abort();
      expect(await store.current(dataset)).toBeNull();
      expect((await store.list()).filter((entry) => entry.dataset === dataset)).toEqual([]);
      const live = await commit(dataset, [{ n: 1 }]);
      const aborted = await store.begin(dataset);
      await aborted.write({ n: 2 });
      await aborted.abort();
      expect(await store.currentVersion(dataset)).toBe(live.version);
      expect((await store.list()).filter((entry) => entry.dataset === dataset)).toHaveLength(1);
    });

    it('commits an attachment with its version and refuses one named like the records', async () => {
      const dataset = fresh();
      const writer = await store.begin(dataset);
      await writer.write({ n: 1 });
      await writer.attach('import-report.json', '{"problems":[]}\n');
      await expect(writer.attach('records.ndjson', '')).rejects.toThrow();
      await expect(writer.attach('../escape.json', '')).rejects.toThrow();
      await writer.commit(details);
      expect(await readAll(dataset)).toEqual([{ n: 1 }]);
    });

    it('lists the live datasets of a group, sorted, and keeps datasets apart', async () => {
      const group = fresh();
      await commit(`${group}/b`, [{ n: 'b' }]);
      await commit(`${group}/a`, [{ n: 'a' }]);
      const unfinished = await store.begin(`${group}/c`);
      await unfinished.write({ n: 'c' });
      expect(await store.liveDatasets(group)).toEqual([`${group}/a`, `${group}/b`]);
      expect(await store.liveDatasets(fresh())).toEqual([]);
      expect(await readAll(`${group}/a`)).toEqual([{ n: 'a' }]);
      await unfinished.abort();
    });

    it('refuses a dataset name that is not one or two lower-case segments (nothing may leave the store)', async () => {
      for (const bad of ['../escape', 'a/../../b', 'Places', 'a/b/c', '', '/abs', 'a/']) await expect(store.begin(bad)).rejects.toThrow('invalid dataset name');
    });
  });
}
