export * from './errors.js';
export * from './api-key-material.js';
export * from './password-policy.js';
export * from './password-hasher.js';
export * from './google-id-token-verifier.js';
