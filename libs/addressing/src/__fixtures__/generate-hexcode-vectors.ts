/**
 * Writes hexcode-vectors.json ONCE; the file is then frozen (ADR 0009,
 * "Compatibility"): hexcode.vectors.spec.ts compares the codec against it and
 * never regenerates it. This script refuses to overwrite the file — a codec
 * change that alters a vector breaks every code already written down.
 *
 *   node --import ./libs/platform/src/testing/register-ts.mjs libs/addressing/src/__fixtures__/generate-hexcode-vectors.ts
 */
import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cellToChildren, getPentagons, getRes0Cells, latLngToCell } from 'h3-js';
import { cellFromHexCode, formatHexCode, hexCodeFromCell, MAX_RESOLUTION } from '../domain/hexcode.js';
import { seededRandom as random } from '../../../platform/src/testing/seeded-random.js';

const target = fileURLToPath(new URL('./hexcode-vectors.json', import.meta.url));
if (existsSync(target)) {
  process.stderr.write(`${target} exists and is frozen; delete it only if you mean to break every issued code\n`);
  process.exit(1);
}

/** Places in Ghana people will address, plus the awkward corners of the globe. */
const PLACES: [string, number, number][] = [
  ['Accra, Independence Arch', 5.5483, -0.1927],
  ['Accra, Makola market', 5.5497, -0.2066],
  ['Kumasi, Kejetia', 6.6978, -1.6232],
  ['Tamale', 9.4034, -0.8424],
  ['Takoradi', 4.8986, -1.7554],
  ['Cape Coast', 5.1053, -1.2466],
  ['Bolgatanga', 10.7856, -0.8514],
  ['Ho', 6.6008, 0.4713],
  ['Null Island', 0, 0],
  ['North Pole', 90, 0],
  ['South Pole', -90, 0],
  ['Antimeridian east', 12.5, 180],
  ['Antimeridian west', -12.5, -180],
  ['Tristan da Cunha', -37.1052, -12.2777],
];

interface Vector {
  note: string;
  lat?: number;
  lng?: number;
  resolution: number;
  cell: string;
  code: string;
  display: string;
}

function vector(note: string, cell: string, resolution: number, lat?: number, lng?: number): Vector {
  const code = hexCodeFromCell(cell);
  if (cellFromHexCode(code) !== cell) throw new Error(`round trip failed for ${cell}`);
  return { note, ...(lat === undefined ? {} : { lat, lng }), resolution, cell, code, display: formatHexCode(code) };
}

const vectors: Vector[] = [];
for (const [name, lat, lng] of PLACES) {
  for (let res = 0; res <= MAX_RESOLUTION; res++) vectors.push(vector(name, latLngToCell(lat, lng, res), res, lat, lng));
}
// Pentagons and their centre children: the cells with the deleted K direction around them.
for (let res = 0; res <= MAX_RESOLUTION; res++) for (const pentagon of getPentagons(res)) vectors.push(vector('pentagon', pentagon, res));
for (const cell of getRes0Cells()) vectors.push(vector('base cell', cell, 0));
for (const cell of cellToChildren('8075fffffffffff', 1)) vectors.push(vector('child of pentagon base cell 58', cell, 1));

const next = random(20260509);
for (let i = 0; i < 640; i++) {
  const res = i % (MAX_RESOLUTION + 1);
  // Uniform on the sphere; six decimals, as an API caller would send.
  const lat = Math.round((Math.asin(2 * next() - 1) * 180) / Math.PI * 1e6) / 1e6;
  const lng = Math.round((next() * 360 - 180) * 1e6) / 1e6;
  vectors.push(vector('random point', latLngToCell(lat, lng, res), res, lat, lng));
}

/** Inputs that must stay rejected, with the reason. */
const rejected = [
  { input: '', reason: 'empty' },
  { input: 'AB', reason: 'bad_length' },
  { input: '0123456789AB', reason: 'bad_length' },
  { input: '6Q3-HUK-Q4ZA', reason: 'bad_character' },
  { input: '6Q3-HQK-Q4Z!', reason: 'bad_character' },
  { input: '6Q3-HQK-Q4ZB', reason: 'check_failed' },
  { input: '6Q3-QHK-Q4ZA', reason: 'check_failed' },
];

const file = {
  scheme: 'hex code v1 (docs/adr/0009-hex-codes.md)',
  generated_with: 'libs/addressing/src/__fixtures__/generate-hexcode-vectors.ts',
  frozen: 'do not regenerate: these codes are promised never to change',
  vectors,
  rejected,
};
// One vector per line: a reviewer sees exactly which codes a change would touch.
const lines = (items: unknown[]) => items.map((item) => `  ${JSON.stringify(item)}`).join(',\n');
const { vectors: all, rejected: bad, ...header } = file;
const head = JSON.stringify(header, null, 1).slice(0, -2);
writeFileSync(target, `${head},\n "vectors": [\n${lines(all)}\n ],\n "rejected": [\n${lines(bad)}\n ]\n}\n`);
process.stdout.write(`wrote ${vectors.length} vectors to ${target}\n`);
