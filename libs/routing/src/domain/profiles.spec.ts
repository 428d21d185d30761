import { describe, expect, it } from '@jest/globals';
import { InvalidParamError } from '../../../platform/src/errors.js';
import { lanesFor, spokenDistance, turnAngle, turnClass } from './maneuvers.js';
import { decodePolyline, encodePolyline, PolylineError } from './polyline.js';
import { modeAllowed, parseMaxspeed, parseMode, speedKmh, surfaceClass, travelDirection } from './profiles.js';

describe('travel modes', () => {
  it('reads mode as clients send it: default and empty are driving, okada is motor_scooter, anything else is 400 naming mode', () => {
    expect(parseMode(undefined)).toBe('driving');
    expect(parseMode('')).toBe('driving');
    expect(parseMode('  ')).toBe('driving');
    expect(parseMode('okada')).toBe('motor_scooter');
    expect(parseMode('OKADA')).toBe('motor_scooter');
    expect(parseMode('bicycle')).toBe('bicycle');
    expect(() => parseMode('helicopter')).toThrow(InvalidParamError);
    expect(() => parseMode(3)).toThrow(expect.objectContaining({ field: 'mode', code: 'INVALID_PARAM' }));
  });

  it('keeps okadas off motorways and cars off footways, and lets access tags decide the rest', () => {
    expect(modeAllowed('driving', { highway: 'motorway' })).toBe(true);
    expect(modeAllowed('motor_scooter', { highway: 'motorway' })).toBe(false);
    expect(modeAllowed('motor_scooter', { highway: 'motorway', motorcycle: 'yes' })).toBe(true);
    expect(modeAllowed('walking', { highway: 'motorway' })).toBe(false);
    expect(modeAllowed('driving', { highway: 'footway' })).toBe(false);
    expect(modeAllowed('driving', { highway: 'footway', access: 'yes' })).toBe(false);
    expect(modeAllowed('walking', { highway: 'footway' })).toBe(true);
    expect(modeAllowed('driving', { highway: 'residential', access: 'private' })).toBe(false);
    expect(modeAllowed('driving', { highway: 'residential', motor_vehicle: 'no' })).toBe(false);
    expect(modeAllowed('bicycle', { highway: 'residential', motor_vehicle: 'no' })).toBe(true);
    expect(modeAllowed('walking', { highway: 'residential', foot: 'no' })).toBe(false);
    expect(modeAllowed('driving', { highway: 'construction' })).toBe(false);
  });

  it('reads one-way streets: yes, -1, roundabouts and motorways; walkers ignore them, cyclists may be exempt', () => {
    expect(travelDirection('driving', { highway: 'primary', oneway: 'yes' })).toBe('forward');
    expect(travelDirection('driving', { highway: 'primary', oneway: '-1' })).toBe('backward');
    expect(travelDirection('driving', { highway: 'primary', junction: 'roundabout' })).toBe('forward');
    expect(travelDirection('driving', { highway: 'primary', junction: 'roundabout', oneway: 'no' })).toBe('both');
    expect(travelDirection('driving', { highway: 'motorway' })).toBe('forward');
    expect(travelDirection('walking', { highway: 'primary', oneway: 'yes' })).toBe('both');
    expect(travelDirection('bicycle', { highway: 'residential', oneway: 'yes', 'oneway:bicycle': 'no' })).toBe('both');
    expect(travelDirection('motor_scooter', { highway: 'motorway' })).toBe('none');
  });

  it('reads maxspeed with its unit and slows unpaved roads, an okada least', () => {
    expect(parseMaxspeed('50')).toBe(50);
    expect(parseMaxspeed('30 mph')).toBe(48.3);
    expect(parseMaxspeed('50 km/h')).toBe(50);
    expect(parseMaxspeed('GH:urban')).toBeNull();
    expect(speedKmh('driving', { highway: 'primary', maxspeed: '20 mph' })).toBeCloseTo(32.19 * 0.9, 1);
    expect(surfaceClass({ highway: 'residential', surface: 'laterite' })).toBe('unpaved');
    expect(surfaceClass({ highway: 'residential' })).toBe('unknown');
    const paved = { highway: 'residential', surface: 'asphalt' };
    const unpaved = { highway: 'residential', surface: 'dirt' };
    const ratio = (mode: 'driving' | 'motor_scooter') => speedKmh(mode, unpaved)! / speedKmh(mode, paved)!;
    expect(ratio('motor_scooter')).toBeGreaterThan(ratio('driving'));
  });
});

describe('manoeuvres', () => {
  it('classifies turns by angle', () => {
    expect(turnAngle(350, 10)).toBe(20);
    expect(turnAngle(10, 350)).toBe(-20);
    expect(turnClass(5)).toBe('straight');
    expect(turnClass(-30)).toBe('slight_left');
    expect(turnClass(90)).toBe('right');
    expect(turnClass(-150)).toBe('sharp_left');
    expect(turnClass(178)).toBe('uturn');
    expect(spokenDistance(230)).toBe('250 metres');
    expect(spokenDistance(1260)).toBe('1.3 kilometres');
  });

  it('turns turn:lanes into OSRM lanes, valid where the lane fits the manoeuvre', () => {
    expect(lanesFor('left|through;right|right', 'right')).toEqual([
      { indications: ['left'], valid: false },
      { indications: ['straight', 'right'], valid: true },
      { indications: ['right'], valid: true },
    ]);
    expect(lanesFor('left||', 'straight')).toEqual([
      { indications: ['left'], valid: false },
      { indications: ['none'], valid: true },
      { indications: ['none'], valid: true },
    ]);
    expect(lanesFor(null, 'left')).toBeNull();
  });
});

describe('encoded polylines', () => {
  it('encodes as Google documents it and decodes back', () => {
    // developers.google.com/maps/documentation/utilities/polylinealgorithm: (38.5, -120.2), (40.7, -120.95), (43.252, -126.453).
    const points: Array<[number, number]> = [[-120.2, 38.5], [-120.95, 40.7], [-126.453, 43.252]];
    expect(encodePolyline(points)).toBe('_p~iF~ps|U_ulLnnqC_mqNvxq`@');
    expect(decodePolyline('_p~iF~ps|U_ulLnnqC_mqNvxq`@')).toEqual(points);
    expect(decodePolyline(encodePolyline(points, 6), 6)).toEqual(points);
    expect(() => decodePolyline('_p~iF~ps|U_')).toThrow(PolylineError);
  });
});
