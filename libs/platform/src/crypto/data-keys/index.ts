export * from './data-key-vault.port.js';
export { EmbeddedDataKeyVault } from './embedded-data-key-vault.js';
export { MongoDataKeyVault } from './mongodb-data-key-vault.js';
