/**
 * CI runs the MongoDB contract suites against mongo-java-server (a MongoDB
 * wire-protocol server in Java, in memory; see .ci/mongo/), not MongoDB. It
 * lacks a few things the adapters use; the suites skip those cases by name,
 * with the reason, when they find themselves talking to it.
 *
 * MongoDB's buildInfo always carries a gitVersion; mongo-java-server's does not.
 */
import { MongoClient } from 'mongodb';

export async function isMongoJavaServer(url: string): Promise<boolean> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    return typeof info.gitVersion !== 'string';
  } finally {
    await client.close();
  }
}

/** Case name → why it cannot run here. */
export type KnownGaps = Readonly<Record<string, string>>;

export const MONGO_JAVA_SERVER_READ_STORE_GAPS: KnownGaps = {
  'rebuilds an index redeclared with other fields':
    'mongo-java-server keeps answering a hinted query from the dropped index after an index is recreated under the same name with other keys',
  'deletes what matches, leaving tombstones that stop a replay':
    'mongo-java-server has no update with an aggregation pipeline ($replaceWith), which deleteWhere uses to leave tombstones',
};
