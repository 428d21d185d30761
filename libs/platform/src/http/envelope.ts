import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { RawResponseMarker } from './envelope.interceptor.js';

/** The response envelope of every /v2 answer (interface.md, "Response envelope"). */
export type Envelope<T> = { success: true; data: T } | { success: false; error: ErrorBody };

export interface ErrorBody {
  code: string;
  message: string;
  /** The request field at fault, for 400s. */
  field?: string;
  /** Particulars of the error a client can act on; its shape is documented per error code (DomainError.details). */
  details?: Readonly<Record<string, unknown>>;
  request_id?: string;
}

export const RAW_RESPONSE = 'http:raw-response';

/**
 * Marks a handler whose answer goes out as it is: /health, /v2/openapi.json and
 * the JWKS are read by standard clients (decisions.md, "Fixed behaviour").
 */
export const RawResponse = () => applyDecorators(SetMetadata(RAW_RESPONSE, true), UseInterceptors(RawResponseMarker));

export function failure(code: string, message: string, extra: Partial<ErrorBody> = {}): Envelope<never> {
  return { success: false, error: { code, message, ...extra } };
}
