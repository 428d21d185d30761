export { seededRandom } from '../../libs/platform/src/testing/seeded-random.js';
