import type { DynamicModule, Type } from '@nestjs/common';
import type { SealedJobResult } from '../domain/job.js';

/** What a kind's run is handed: who asked, and a way to report progress (recorded as JobProgressed). */
export interface JobRunContext {
  readonly accountId: string;
  readonly jobId: string;
  progress(done: number, total: number | null): Promise<void>;
}

/**
 * A kind of job, implemented by the context whose work it is and bound to the
 * jobs context by the composition root (apps/shared/contexts.ts), so the jobs
 * context names no other context. `run` answers the result's `data` (an
 * object the envelope wraps), the whole envelope as JSON bytes, or `data` to
 * be kept sealed under a customer's key (`sealedJobResult`); a DomainError it
 * throws fails the job with its code and message, anything else is retried
 * and then fails with JOB_FAILED.
 */
export interface JobKind<Input = unknown> {
  readonly kind: string;
  run(input: Input, context: JobRunContext): Promise<Buffer | Record<string, unknown> | SealedJobResult>;
}

/** A kind as the composition root binds it: the module that provides it (imported by the jobs worker module) and its token. */
export interface JobKindBinding {
  module: Type<unknown> | DynamicModule;
  provider: Type<JobKind>;
}

/** RFC 7240: a client asks for the job form of an answer the interface gives synchronously with `Prefer: respond-async`. */
export function prefersAsync(header: string | string[] | undefined): boolean {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values.some((value) => value.split(',').some((preference) => preference.split(';')[0].trim().toLowerCase() === 'respond-async'));
}
