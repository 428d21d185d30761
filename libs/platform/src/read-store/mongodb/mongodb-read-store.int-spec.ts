import { MongoClient } from 'mongodb';
import { randomBytes } from 'node:crypto';
import { describeReadStoreContract } from '../read-store.contract.js';
import { describeWith, MONGO_TEST_VARIABLE } from '../../testing/server-suites.js';
import { MongoReadStore } from './mongodb-read-store.js';

const url = process.env[MONGO_TEST_VARIABLE];

// The contract needs a MongoDB wire-protocol server (CI starts mongo-java-server,
// see .ci/mongo/, and every case runs against it). Where none is configured
// (most laptops) the suite is skipped, visibly, rather than failed.
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
      } finally {
        await client.close();
      }
    },
  );
});
