import { plainToInstance, Type } from 'class-transformer';
import { IsNumber, IsOptional, Max, Min, validateSync } from 'class-validator';
import { LatLng, Latitude, Longitude, ToNumber } from './lat-lng.js';

/** The coordinate blocks the requests wrote out by hand before LatLng (ADR 71): the decorators must refuse exactly as they did. */
class HandWrittenQuery {
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lat must be a number' })
  @Min(-90)
  @Max(90)
  lat?: number;

  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lng must be a number' })
  @Min(-180)
  @Max(180)
  lng?: number;
}

class DeclaredQuery {
  @Latitude({ optional: true, query: 'number' })
  lat?: number;

  @Longitude({ optional: true, query: 'number' })
  lng?: number;
}

class HandWrittenBody {
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lat must be a number' })
  @Min(-90, { message: 'lat must be a number from -90 to 90' })
  @Max(90, { message: 'lat must be a number from -90 to 90' })
  lat: number;

  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lng must be a number' })
  @Min(-180, { message: 'lng must be a number from -180 to 180' })
  @Max(180, { message: 'lng must be a number from -180 to 180' })
  lng: number;
}

class DeclaredBody {
  @Latitude({ rangeMessage: 'outside' })
  lat: number;

  @Longitude({ rangeMessage: 'outside' })
  lng: number;
}

class HandWrittenStrictQuery {
  @ToNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lat must be a number from -90 to 90' })
  @Min(-90, { message: 'lat must be a number from -90 to 90' })
  @Max(90, { message: 'lat must be a number from -90 to 90' })
  lat: number;

  @ToNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lng must be a number from -180 to 180' })
  @Min(-180, { message: 'lng must be a number from -180 to 180' })
  @Max(180, { message: 'lng must be a number from -180 to 180' })
  lng: number;
}

class DeclaredStrictQuery {
  @Latitude({ query: 'strict', rangeMessage: 'always' })
  lat: number;

  @Longitude({ query: 'strict', rangeMessage: 'always' })
  lng: number;
}

class HandWrittenPoint {
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lat must be a number' })
  @Min(-90)
  @Max(90)
  lat: number;

  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lng must be a number' })
  @Min(-180)
  @Max(180)
  lng: number;
}

const INPUTS: Array<Record<string, unknown>> = [
  {},
  { lat: 5.6, lng: -0.18 },
  { lat: '5.6', lng: '-0.18' },
  { lat: '', lng: ' ' },
  { lat: 'north', lng: 'west' },
  { lat: 90.5, lng: -180.5 },
  { lat: '-91', lng: '181' },
  { lat: Number.NaN, lng: Number.POSITIVE_INFINITY },
  { lat: null, lng: true },
  { lat: -90, lng: 180 },
];

/** What class-validator says, constraint by constraint in its order (the first is the one an answer carries). */
const refusals = (type: new () => object, input: Record<string, unknown>) =>
  validateSync(plainToInstance(type, input)).map((error) => [error.property, Object.entries(error.constraints ?? {})]);

describe('the coordinate decorators refuse as the hand-written blocks did', () => {
  it.each(INPUTS)('a query with optional lat and lng read as numbers: %p', (input) => {
    expect(refusals(DeclaredQuery, input)).toEqual(refusals(HandWrittenQuery, input));
  });

  it.each(INPUTS)('a body whose range refusal names the range: %p', (input) => {
    expect(refusals(DeclaredBody, input)).toEqual(refusals(HandWrittenBody, input));
  });

  it.each(INPUTS)('a strict query that names the range for every refusal: %p', (input) => {
    expect(refusals(DeclaredStrictQuery, input)).toEqual(refusals(HandWrittenStrictQuery, input));
  });

  it.each(INPUTS)('the LatLng body: %p', (input) => {
    expect(refusals(LatLng, input)).toEqual(refusals(HandWrittenPoint, input));
  });

  it('says what the e2e suites and clients read', () => {
    expect(refusals(DeclaredStrictQuery, { lat: '', lng: '0' })).toEqual([['lat', [['max', 'lat must be a number from -90 to 90'], ['min', 'lat must be a number from -90 to 90'], ['isNumber', 'lat must be a number from -90 to 90']]]]);
    expect(refusals(LatLng, { lat: 0, lng: 'x' })[0]).toEqual(['lng', expect.arrayContaining([['isNumber', 'lng must be a number']])]);
    expect(refusals(DeclaredQuery, { lat: '', lng: '' })).toEqual([]);
  });
});
