import { MongoClient } from 'mongodb';
import { randomBytes } from 'node:crypto';
import { describeReadStoreContract } from '../read-store.contract.js';
import { describeWith, MONGO_TEST_VARIABLE } from '../../testing/server-suites.js';
import { MongoReadStore } from './mongodb-read-store.js';
import { isMongoJavaServer, MONGO_JAVA_SERVER_READ_STORE_GAPS } from '../../testing/wire-compatible-mongo.js';

const url = process.env[MONGO_TEST_VARIABLE];
// CI's server is mongo-java-server, not MongoDB: the cases it cannot run are skipped with the reason.
const javaServer = url ? await isMongoJavaServer(url) : false;

// The contract needs a MongoDB wire-protocol server (CI starts mongo-java-server,
// see .ci/mongo/). Where none is configured (most laptops)
// the suite is skipped, visibly, rather than failed.
const describeIf = describeWith(MONGO_TEST_VARIABLE, 'the MongoDB read-store contract (mongodb-read-store.int-spec)');

describeIf('MongoReadStore', () => {
  // A database of its own per run (collections also carry a random suffix),
  // dropped afterwards, so runs against a shared server never collide.
  const database = `read_store_contract_${randomBytes(4).toString('hex')}`;

  describeReadStoreContract(
    'mongodb',
    () => MongoReadStore.open(url!, database),
    async () => {
      const client = new MongoClient(url!);
      try {
        await client.db(database).dropDatabase();
      } catch (error) {
        // mongo-java-server fails to drop a database whose index was recreated
        // under its old name; its data lives in memory and goes with the process.
        if (!javaServer) throw error;
      } finally {
        await client.close();
      }
    },
    javaServer ? MONGO_JAVA_SERVER_READ_STORE_GAPS : {},
  );
});
