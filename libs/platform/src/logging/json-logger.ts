import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** Field names whose values never reach a log line, wherever they appear. */
const REDACT = [
  'key',
  'api_key',
  'apiKey',
  'password',
  'secret',
  'token',
  '*.key',
  '*.api_key',
  '*.password',
  '*.secret',
  '*.token',
  'headers["x-api-key"]',
  'headers.authorization',
];

/**
 * Structured JSON logs (one object per line) for Nest and for our own code.
 * Secrets are redacted by field name; request logs carry the key prefix only.
 */
export class JsonLogger implements LoggerService {
  readonly pino: Logger;

  constructor(level: Level = 'info', destination?: pino.DestinationStream) {
    this.pino = pino({ level, base: undefined, redact: { paths: REDACT, censor: '[redacted]' }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
  }

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }
  error(message: unknown, ...rest: unknown[]): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    this.write('error', message, context);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  info(fields: Record<string, unknown>): void {
    this.pino.info(fields);
  }
  access(fields: Record<string, unknown>): void {
    this.pino.info({ kind: 'access', ...fields });
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug', message: unknown, context?: string): void {
    if (typeof message === 'object' && message !== null) this.pino[level]({ context, ...message });
    else this.pino[level]({ context }, String(message));
  }
}
