import { cellToChildren, getBaseCellNumber, getPentagons, getRes0Cells, isValidCell, latLngToCell } from 'h3-js';
import { InvalidParamError } from '../../../platform/src/errors.js';
import {
  __testing,
  cellFromHexCode,
  codedCellForPoint,
  DEFAULT_ADDRESS_RESOLUTION,
  formatHexCode,
  HEX_CODE_ALPHABET,
  hexCodeCheckCharacter,
  hexCodeCheckHolds,
  hexCodeForPoint,
  hexCodeFromCell,
  InvalidCellError,
  InvalidCodeError,
  MAX_CODE_LENGTH,
  MAX_SUGGESTIONS,
  parseHexCode,
  PAYLOAD_LENGTH,
  PENTAGON_BASE_CELLS,
  pointForHexCode,
  suggestHexCodes,
} from './hexcode.js';

const { checkHolds, checkValue, OFFSET, VALUES_AT, RESOLUTIONS_BY_PAYLOAD_LENGTH } = __testing;

function invalidCode(run: () => unknown): InvalidCodeError {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidCodeError) return error;
    throw error;
  }
  throw new Error('expected an InvalidCodeError');
}

const accra = hexCodeForPoint(5.6037, -0.187);

describe('hex code scheme', () => {
  it('uses 32 distinct characters without the look-alikes I, L, O and U', () => {
    expect(new Set(HEX_CODE_ALPHABET).size).toBe(32);
    expect(HEX_CODE_ALPHABET).not.toMatch(/[ILOU]/);
    expect(HEX_CODE_ALPHABET).toMatch(/^[0-9A-Z]+$/);
  });

  it('fits every resolution sharing a payload length into 32^length values', () => {
    for (const [length, resolutions] of RESOLUTIONS_BY_PAYLOAD_LENGTH.entries()) {
      if (!resolutions) continue;
      const used = resolutions.reduce((sum, res) => sum + VALUES_AT[res], 0);
      expect(used).toBeLessThanOrEqual(32 ** length);
      // Numbered one after the other, the coarser resolution first.
      resolutions.slice(1).forEach((res, i) => expect(OFFSET[res]).toBe(OFFSET[resolutions[i]] + VALUES_AT[resolutions[i]]));
    }
  });

  it('gives coarser cells codes no longer than finer ones', () => {
    for (let res = 1; res < PAYLOAD_LENGTH.length; res++) expect(PAYLOAD_LENGTH[res]).toBeGreaterThanOrEqual(PAYLOAD_LENGTH[res - 1]);
    expect(PAYLOAD_LENGTH[0] + 1).toBe(3);
    expect(PAYLOAD_LENGTH[15] + 1).toBe(MAX_CODE_LENGTH);
  });

  it('knows the same pentagon base cells as H3', () => {
    expect([...PENTAGON_BASE_CELLS].sort((a, b) => a - b)).toEqual(getPentagons(0).map(getBaseCellNumber).sort((a, b) => a - b));
  });

  it('codes a default-resolution address in 10 characters, shown as 3-3-4', () => {
    expect(DEFAULT_ADDRESS_RESOLUTION).toBe(13);
    expect(accra).toHaveLength(10);
    expect(formatHexCode(accra)).toMatch(/^[0-9A-Z]{3}-[0-9A-Z]{3}-[0-9A-Z]{4}$/);
  });
});

describe('check character', () => {
  /** Every payload of a length, as value arrays with their check appended. */
  function* allCodes(payloadLength: number): Generator<number[]> {
    const values = new Array<number>(payloadLength + 1).fill(0);
    for (let n = 0; n < 32 ** payloadLength; n++) {
      let rest = n;
      for (let i = payloadLength - 1; i >= 0; i--) {
        values[i] = rest % 32;
        rest = Math.floor(rest / 32);
      }
      values[payloadLength] = checkValue(values, payloadLength);
      yield values;
    }
  }

  it.each([1, 2, 3])('detects every single substitution in every code with a %i-character payload', (payloadLength) => {
    let tried = 0;
    let missed = 0;
    for (const code of allCodes(payloadLength)) {
      expect(checkHolds(code, code.length)).toBe(true);
      for (let i = 0; i < code.length; i++) {
        const original = code[i];
        for (let v = 0; v < 32; v++) {
          if (v === original) continue;
          code[i] = v;
          tried++;
          if (checkHolds(code, code.length)) missed++;
        }
        code[i] = original;
      }
    }
    expect(tried).toBe(32 ** payloadLength * (payloadLength + 1) * 31);
    expect(missed).toBe(0);
  });

  it.each([1, 2, 3])('detects every adjacent transposition in every code with a %i-character payload (the check character included)', (payloadLength) => {
    let tried = 0;
    let missed = 0;
    for (const code of allCodes(payloadLength)) {
      for (let i = 0; i + 1 < code.length; i++) {
        if (code[i] === code[i + 1]) continue;
        [code[i], code[i + 1]] = [code[i + 1], code[i]];
        tried++;
        if (checkHolds(code, code.length)) missed++;
        [code[i], code[i + 1]] = [code[i + 1], code[i]];
      }
    }
    expect(tried).toBeGreaterThan(32 ** payloadLength * payloadLength * 0.9);
    expect(missed).toBe(0);
  });

  it('notices a leading zero added or dropped in most codes (the state starts at the length)', () => {
    let slipped = 0;
    for (const code of allCodes(2)) {
      const longer = [0, ...code];
      if (checkHolds(longer, longer.length)) slipped++;
    }
    // With a zero start state, 0∘x = x and every such slip would pass.
    expect(slipped).toBeLessThan(1024 / 16);
  });

  it('agrees with the string helpers', () => {
    const payload = accra.slice(0, -1);
    expect(hexCodeCheckCharacter(payload)).toBe(accra.at(-1));
    expect(hexCodeCheckCharacter(payload.toLowerCase())).toBe(accra.at(-1));
    expect(hexCodeCheckHolds(accra)).toBe(true);
    expect(hexCodeCheckHolds(payload + (accra.at(-1) === '0' ? '1' : '0'))).toBe(false);
  });
});

describe('decoding every short code', () => {
  /** All H3 cells of resolutions 0–2 (122 + 842 + 5882). */
  const expected = new Set<string>();
  for (const base of getRes0Cells()) {
    expected.add(base);
    for (const child of cellToChildren(base, 1)) expected.add(child);
    for (const child of cellToChildren(base, 2)) expected.add(child);
  }

  it('maps the 3- and 4-character codes one to one onto the cells of resolutions 0 to 2', () => {
    const decoded = new Set<string>();
    let rejected = 0;
    for (const payloadLength of [2, 3]) {
      for (let n = 0; n < 32 ** payloadLength; n++) {
        let payload = '';
        for (let i = 0, rest = n; i < payloadLength; i++, rest = Math.floor(rest / 32)) payload = HEX_CODE_ALPHABET[rest % 32] + payload;
        const code = payload + hexCodeCheckCharacter(payload);
        try {
          const cell = cellFromHexCode(code);
          expect(isValidCell(cell)).toBe(true);
          expect(hexCodeFromCell(cell)).toBe(code);
          decoded.add(cell);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidCodeError);
          expect(['out_of_range', 'pentagon_deleted_cell']).toContain((error as InvalidCodeError).reason);
          rejected++;
        }
      }
    }
    expect(expected.size).toBe(122 + 842 + 5882);
    expect(decoded).toEqual(expected);
    expect(rejected).toBe(1024 + 32768 - expected.size);
  });
});

describe('hexCodeFromCell and cellFromHexCode', () => {
  it('round-trips cells of every resolution', () => {
    for (let res = 0; res <= 15; res++) {
      const cell = latLngToCell(6.6978, -1.6232, res);
      const code = hexCodeFromCell(cell);
      expect(code).toHaveLength(PAYLOAD_LENGTH[res] + 1);
      expect(cellFromHexCode(code)).toBe(cell);
      expect(parseHexCode(code).resolution).toBe(res);
    }
  });

  it('gives nearby cells codes with a common prefix', () => {
    const here = hexCodeForPoint(5.6037, -0.187);
    const nextDoor = hexCodeForPoint(5.60375, -0.18705);
    expect(nextDoor).not.toBe(here);
    expect(nextDoor.slice(0, 6)).toBe(here.slice(0, 6));
  });

  it('accepts lower case, hyphens, spaces and the look-alikes I, L and O', () => {
    const cell = cellFromHexCode(accra);
    expect(cellFromHexCode(accra.toLowerCase())).toBe(cell);
    expect(cellFromHexCode(formatHexCode(accra))).toBe(cell);
    expect(cellFromHexCode(` ${accra.slice(0, 5)} ${accra.slice(5)} `)).toBe(cell);
    const withOne = [...Array(16).keys()].map((res) => hexCodeForPoint(5.55, -0.2, res)).find((code) => /[01]/.test(code))!;
    const lookAlike = withOne.replace(/1/g, 'l').replace(/0/g, 'O');
    expect(cellFromHexCode(lookAlike)).toBe(cellFromHexCode(withOne));
    expect(parseHexCode(lookAlike).code).toBe(withOne);
  });

  it('formats codes of every length in groups of three or four, the longer groups last', () => {
    const shapes = new Map<number, string>();
    for (let res = 0; res <= 15; res++) {
      const display = formatHexCode(hexCodeFromCell(latLngToCell(-33.9, 18.4, res)));
      shapes.set(display.replace(/-/g, '').length, display.replace(/[0-9A-Z]/g, 'x'));
    }
    expect(Object.fromEntries(shapes)).toEqual({
      3: 'xxx',
      4: 'xxxx',
      5: 'xx-xxx',
      6: 'xxx-xxx',
      7: 'xxx-xxxx',
      8: 'xxxx-xxxx',
      9: 'xxx-xxx-xxx',
      10: 'xxx-xxx-xxxx',
      11: 'xxx-xxxx-xxxx',
    });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['-'.repeat(41), 'too_long'],
    ['AB', 'bad_length'],
    ['ABCDEFGHJKMN', 'bad_length'],
    ['6Q3-HUK-Q4ZA', 'bad_character'],
    ['6Q3.HQK.Q4ZA', 'bad_character'],
    ['6Q3-HQK-Q4Zé', 'bad_character'],
  ])('refuses %j (%s)', (input, reason) => {
    const error = invalidCode(() => cellFromHexCode(input, 'address'));
    expect(error.reason).toBe(reason);
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_CODE');
    expect(error.field).toBe('address');
  });

  it('names the offending character and its position', () => {
    expect(invalidCode(() => cellFromHexCode('6Q3-HUK-Q4ZA')).message).toContain('"U" at position 6');
  });

  it('refuses a mistyped code and suggests the intended one', () => {
    const typo = accra.slice(0, 4) + (accra[4] === 'X' ? 'Y' : 'X') + accra.slice(5);
    const error = invalidCode(() => cellFromHexCode(typo));
    expect(error.reason).toBe('check_failed');
    expect(error.suggestions).toContain(accra);
    expect(error.message).toMatch(/did you mean/);
  });

  it('refuses a value beyond the last cell of its length', () => {
    // 'ZZ' is 1023; resolutions 0 and 1 use the values 0–975.
    const error = invalidCode(() => cellFromHexCode(`ZZ${hexCodeCheckCharacter('ZZ')}`));
    expect(error.reason).toBe('out_of_range');
  });

  it('refuses a code of a pentagon cell in the deleted K direction, and the H3 index of one', () => {
    // Base cell 58 is a pentagon; its resolution-1 child in direction 1 does not exist.
    const value = OFFSET[1] + 58 * 7 + 1;
    const payload = HEX_CODE_ALPHABET[Math.floor(value / 32)] + HEX_CODE_ALPHABET[value % 32];
    expect(invalidCode(() => cellFromHexCode(payload + hexCodeCheckCharacter(payload))).reason).toBe('pentagon_deleted_cell');
    const deleted = '81747ffffffffff'; // resolution 1, base cell 58, digit 1
    expect(isValidCell(deleted)).toBe(false);
    expect(() => hexCodeFromCell(deleted)).toThrow(InvalidCellError);
    // The neighbouring direction 2 is a real cell.
    expect(cellFromHexCode(hexCodeFromCell('8174bffffffffff'))).toBe('8174bffffffffff');
  });

  it.each([
    ['not hex', 'zz'],
    ['a directed edge', '115283473fffffff'],
    ['a vertex', '2222597fffffffff'],
    ['an unused digit set', '8d7576970b016b8'],
    ['a base cell beyond 121', '80f5fffffffffff'],
  ])('refuses %s as a cell', (_what, cell) => {
    expect(isValidCell(cell)).toBe(false);
    expect(() => hexCodeFromCell(cell)).toThrow(InvalidCellError);
  });
});

describe('suggestHexCodes', () => {
  const codes = [0, 3, 7, 9, 12, 13, 15].map((res) => hexCodeForPoint(9.4034, -0.8424, res));

  it('finds the original among the suggestions for every single substitution', () => {
    for (const code of codes) {
      for (let i = 0; i < code.length; i++) {
        for (const ch of HEX_CODE_ALPHABET) {
          if (ch === code[i]) continue;
          const typo = code.slice(0, i) + ch + code.slice(i + 1);
          const suggestions = suggestHexCodes(typo);
          expect(suggestions).toContain(code);
          expect(suggestions.length).toBeLessThanOrEqual(MAX_SUGGESTIONS);
          for (const suggestion of suggestions) expect(() => cellFromHexCode(suggestion)).not.toThrow();
        }
      }
    }
  });

  it('finds the original for every adjacent transposition', () => {
    for (const code of codes) {
      for (let i = 0; i + 1 < code.length; i++) {
        if (code[i] === code[i + 1]) continue;
        const typo = code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2);
        expect(suggestHexCodes(typo)).toContain(code);
      }
    }
  });

  it('ranks a look-alike substitution among the first three', () => {
    let checked = 0;
    for (const code of codes) {
      for (let i = 0; i < code.length; i++) {
        const swap = ({ '5': 'S', S: '5', '8': 'B', B: '8', '2': 'Z', Z: '2' } as Record<string, string>)[code[i]];
        if (!swap) continue;
        const typo = code.slice(0, i) + swap + code.slice(i + 1);
        expect(suggestHexCodes(typo).indexOf(code)).toBeGreaterThanOrEqual(0);
        expect(suggestHexCodes(typo).indexOf(code)).toBeLessThan(3);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('tries every character where a U was typed', () => {
    const typo = `${accra.slice(0, 2)}U${accra.slice(3)}`;
    expect(suggestHexCodes(typo)).toContain(accra);
    expect(invalidCode(() => cellFromHexCode(typo)).suggestions).toContain(accra);
  });

  it('drops a character from a code one too long', () => {
    const longest = codes.at(-1)!;
    const typo = `${longest.slice(0, 4)}7${longest.slice(4)}`;
    expect(suggestHexCodes(typo)).toContain(longest);
  });

  it('suggests nothing for a valid code or for noise', () => {
    expect(suggestHexCodes(accra)).toEqual([]);
    expect(suggestHexCodes('hello, world!')).toEqual([]);
  });
});

describe('hexCodeForPoint and pointForHexCode', () => {
  it('codes the cell holding the point and returns its centre', () => {
    const point = pointForHexCode(accra);
    expect(point.cell).toBe(latLngToCell(5.6037, -0.187, 13));
    expect(Math.abs(point.lat - 5.6037)).toBeLessThan(0.0001);
    expect(Math.abs(point.lng + 0.187)).toBeLessThan(0.0001);
    expect(hexCodeForPoint(point.lat, point.lng)).toBe(accra);
  });

  it.each([
    [91, 0, 13, 'lat'],
    [Number.NaN, 0, 13, 'lat'],
    [0, -180.5, 13, 'lng'],
    [0, 0, 16, 'resolution'],
    [0, 0, 2.5, 'resolution'],
  ])('refuses lat %p, lng %p, resolution %p naming %s', (lat, lng, resolution, field) => {
    try {
      hexCodeForPoint(lat, lng, resolution);
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidParamError);
      expect((error as InvalidParamError).field).toBe(field);
    }
  });
});

describe('codedCellForPoint (GET /v2/reverse)', () => {
  it('answers what hexCodeForPoint then pointForHexCode answer, at every resolution', () => {
    for (let i = 0; i < 400; i++) {
      const lat = -89.9 + ((i * 37.77) % 179.8);
      const lng = -179.9 + ((i * 91.13) % 359.8);
      const resolution = i % 16;
      expect(codedCellForPoint(lat, lng, resolution)).toEqual(pointForHexCode(hexCodeForPoint(lat, lng, resolution)));
    }
    expect(() => codedCellForPoint(91, 0)).toThrow(InvalidParamError);
    expect(() => codedCellForPoint(0, 0, 16)).toThrow(InvalidParamError);
  });
});
