import { ValidationError, ValidationPipe } from '@nestjs/common';
import { InvalidParamError } from '../errors.js';

/**
 * class-validator at the edge (style.md): unknown fields are refused, values
 * are transformed to their DTO types, and the first failure becomes a 400
 * INVALID_PARAM naming the field, e.g. `field: "pings[3].lat"`.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const [field, constraint] = firstFailure(errors);
      return new InvalidParamError(constraint ?? `${field} is invalid`, field);
    },
  });
}

function firstFailure(errors: ValidationError[], parent = ''): [string, string | undefined] {
  const error = errors[0];
  if (!error) return [parent || 'body', undefined];
  const field = parent ? (/^\d+$/.test(error.property) ? `${parent}[${error.property}]` : `${parent}.${error.property}`) : error.property;
  if (error.constraints) {
    const [message] = Object.values(error.constraints);
    return [field, message];
  }
  return firstFailure(error.children ?? [], field);
}
