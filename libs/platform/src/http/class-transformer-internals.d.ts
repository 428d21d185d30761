/**
 * Two modules of class-transformer that its index does not re-export, read by
 * the compiled query path (validation.ts): the metadata storage its decorators
 * write to, and the options plainToInstance starts from. Their types ship with
 * the package, under `types/`.
 */
declare module 'class-transformer/cjs/storage.js' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';
  export const defaultMetadataStorage: MetadataStorage;
}

declare module 'class-transformer/cjs/constants/default-options.constant.js' {
  import type { ClassTransformOptions } from 'class-transformer';
  export const defaultOptions: Partial<ClassTransformOptions>;
}
