export * from './dataset-store.port.js';
export * from './dataset-declaration.js';
export * from './polled-dataset.js';
export { FileDatasetStore, FileDatasetWriter, referenceRoot } from './file/file-dataset-store.js';
