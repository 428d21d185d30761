import { LanguageQuotaError } from '../domain/errors.js';
import type { LanguageProvider } from './language-provider.port.js';

/** Without KHAYA_API_KEY: interface.md, "Errors", LANGUAGE_QUOTA 503 "the language services are unconfigured on this deployment". */
export class UnconfiguredLanguageProvider implements LanguageProvider {
  readonly name = 'none';

  translate(): Promise<never> {
    return Promise.reject(unconfigured());
  }

  transcribe(): Promise<never> {
    return Promise.reject(unconfigured());
  }
}

function unconfigured(): LanguageQuotaError {
  return new LanguageQuotaError('the language services are not configured on this deployment (no provider key)');
}
