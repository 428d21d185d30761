import { describe } from '@jest/globals';

/**
 * `describe` for a suite that needs a real server, given by an environment
 * variable (EVENTSTORE_URL, MONGODB_URL, REDIS_URL, KAFKA_BROKERS): without it
 * the suite is `describe.skip`, so jest counts its tests as skipped — never a
 * stand-in test that passes without asserting anything.
 *
 * The note goes to stderr, not the console: jest prints nothing of a test file
 * whose tests were all skipped, its console output included, so a
 * `console.info` there is lost in a full run. Worker stderr is passed through.
 */
export function describeWith(variable: string, suite: string): typeof describe.skip {
  if (process.env[variable]) return describe;
  process.stderr.write(`${variable} is not set: skipping ${suite}\n`);
  return describe.skip;
}

/**
 * The MongoDB adapter contract suites' server: MONGODB_TEST_URL when set (CI
 * gives its mongo-java-server there, so that services the tests spawn with the
 * inherited environment keep their embedded read store), else MONGODB_URL.
 */
export const MONGO_TEST_VARIABLE = process.env.MONGODB_TEST_URL ? 'MONGODB_TEST_URL' : 'MONGODB_URL';
