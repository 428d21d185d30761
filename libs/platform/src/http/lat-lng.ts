import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsNumber, IsOptional, Max, Min } from 'class-validator';

/**
 * The API's coordinates (ADR 71): `lat` and `lng`, WGS 84 decimal degrees,
 * declared once with their rules, their conversion from a query string and
 * their OpenAPI schema. A request takes the point whole (`LatLng`, a JSON body
 * `{lat, lng}`) or as two fields (`@Latitude()`, `@Longitude()`), where its own
 * documentation, optionality or query parsing differ.
 */
export interface CoordinateOptions {
  /** The request may go without it (it then says what it takes instead). */
  optional?: boolean;
  /**
   * A query-string field, read as a number: `'number'` as class-transformer's
   * `Number` type does (an empty value reads as 0); `'strict'` keeps an empty
   * value a string, so it fails instead of quietly reading as 0.
   */
  query?: 'number' | 'strict';
  /**
   * Where a refusal says "lat must be a number from -90 to 90": `'outside'`
   * for a number out of range (a non-number reads "lat must be a number"),
   * `'always'` for both. Without it, a non-number reads "lat must be a number"
   * and a number out of range class-validator's own words ("lat must not be
   * less than -90").
   */
  rangeMessage?: 'outside' | 'always';
  description?: string;
  example?: number;
}

/** The OpenAPI schema of a point `{lat, lng}`, for a field the request documents by hand (a point or a text, say). */
export const LAT_LNG_SCHEMA: { type: 'object'; required: string[]; properties: Record<'lat' | 'lng', { type: 'number'; minimum: number; maximum: number }> } = {
  type: 'object',
  required: ['lat', 'lng'],
  properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lng: { type: 'number', minimum: -180, maximum: 180 } },
};

/** A query value read as a number, where an empty value stays a string (and fails) rather than quietly reading as 0. */
export const ToNumber = () => Transform(({ value }) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value));

function coordinate(axis: 'lat' | 'lng', options: CoordinateOptions): PropertyDecorator {
  const limit = LAT_LNG_SCHEMA.properties[axis].maximum;
  const range = `${axis} must be a number from -${limit} to ${limit}`;
  const ranged = options.rangeMessage ? { message: range } : undefined;
  const documented = {
    ...(options.description === undefined ? {} : { description: options.description }),
    minimum: -limit,
    maximum: limit,
    ...(options.example === undefined ? {} : { example: options.example }),
  };
  // In the order the same decorators take stacked above a field (the lowest first), so class-validator reports the same first failure.
  const decorators: PropertyDecorator[] = [
    Max(limit, ranged),
    Min(-limit, ranged),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: options.rangeMessage === 'always' ? range : `${axis} must be a number` }),
  ];
  if (options.query === 'number') decorators.push(Type(() => Number));
  if (options.query === 'strict') decorators.push(ToNumber());
  if (options.optional) decorators.push(IsOptional());
  decorators.push(ApiProperty(options.optional ? { ...documented, required: false } : documented));
  return applyDecorators(...decorators);
}

/** `lat`: a number from -90 to 90. */
export const Latitude = (options: CoordinateOptions = {}): PropertyDecorator => coordinate('lat', options);

/** `lng`: a number from -180 to 180. */
export const Longitude = (options: CoordinateOptions = {}): PropertyDecorator => coordinate('lng', options);

/** A point `{lat, lng}` in a JSON body (decisions.md, "Conventions"). */
export class LatLng {
  @Latitude({ example: 5.5502 })
  lat: number;

  @Longitude({ example: -0.2077 })
  lng: number;
}
