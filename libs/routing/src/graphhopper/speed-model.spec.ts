import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MODES, speedKmh } from '../domain/profiles.js';
import { GH_SPEED_MODEL_FILES, graphHopperSpeedModel } from './speed-model.js';

const ci = path.resolve(import.meta.dirname, '../../../../.ci/graphhopper');

describe('the speed table mapped onto GraphHopper custom models (docs/adr/0035)', () => {
  it.each(MODES)('the committed %s model is the one the table gives, and the server config loads it', (mode) => {
    const committed = JSON.parse(readFileSync(path.join(ci, GH_SPEED_MODEL_FILES[mode]), 'utf8')) as unknown;
    expect(committed).toEqual(graphHopperSpeedModel(mode));
    expect(readFileSync(path.join(ci, 'config.yml'), 'utf8')).toContain(GH_SPEED_MODEL_FILES[mode]);
  });

  it('slows the embedded engine by the same factors: gravel, then a bad road', () => {
    const paved = speedKmh('driving', { highway: 'secondary', surface: 'asphalt' }, 'open_road')!;
    const gravel = speedKmh('driving', { highway: 'secondary', surface: 'gravel' }, 'open_road')!;
    const badGravel = speedKmh('driving', { highway: 'secondary', surface: 'gravel', smoothness: 'bad' }, 'open_road')!;
    const model = graphHopperSpeedModel('driving').speed;
    expect(gravel / paved).toBeCloseTo(Number(model.find((statement) => statement.if.includes('GRAVEL'))!.multiply_by), 5);
    expect(badGravel / gravel).toBeCloseTo(Number(model.find((statement) => statement.if.includes('smoothness == BAD'))!.multiply_by), 5);
    // The okada loses less on gravel than the car; walking is not slowed by a rough road.
    expect(speedKmh('motor_scooter', { highway: 'secondary', surface: 'gravel' }, 'open_road')! / speedKmh('motor_scooter', { highway: 'secondary' }, 'open_road')!).toBeGreaterThan(gravel / paved);
    expect(speedKmh('walking', { highway: 'secondary', smoothness: 'bad' })).toBe(speedKmh('walking', { highway: 'secondary' }));
    // Open road is faster than town for a car on the same class.
    expect(speedKmh('driving', { highway: 'trunk' }, 'open_road')!).toBeGreaterThan(speedKmh('driving', { highway: 'trunk' })!);
  });
});
