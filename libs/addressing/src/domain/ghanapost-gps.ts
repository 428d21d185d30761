/**
 * What is public about a GhanaPostGPS digital address (issue 29, item 6;
 * docs/adr/0014). `GA-123-4567` is a two-letter area prefix, then two numbers
 * that locate a 5 m square on GhanaPost's own, unpublished grid. GhanaPost
 * documents that the first letter of the prefix is the region; the second
 * letter is a district within it, but no table of those district letters is
 * published, nor is any among the project's reference data (../shared/data),
 * so the district is not decoded: nothing is guessed.
 *
 * The letters name the ten regions the system was designed for (2017). Six
 * regions were carved out of them in 2019; a code keeps its letter, so the
 * answer lists the regions of today the old one became.
 */
export interface GhanaPostRegion {
  /** The region letter of the prefix. */
  letter: string;
  /** The region the letter stands for, as at the system's launch (2017). */
  name: string;
  /** The regions of today that lie in that one (2019 reorganisation). */
  current_regions: string[];
}

const REGIONS: Readonly<Record<string, Omit<GhanaPostRegion, 'letter'>>> = {
  A: { name: 'Ashanti', current_regions: ['Ashanti'] },
  B: { name: 'Brong-Ahafo', current_regions: ['Bono', 'Bono East', 'Ahafo'] },
  C: { name: 'Central', current_regions: ['Central'] },
  E: { name: 'Eastern', current_regions: ['Eastern'] },
  G: { name: 'Greater Accra', current_regions: ['Greater Accra'] },
  N: { name: 'Northern', current_regions: ['Northern', 'Savannah', 'North East'] },
  U: { name: 'Upper East', current_regions: ['Upper East'] },
  V: { name: 'Volta', current_regions: ['Volta', 'Oti'] },
  W: { name: 'Western', current_regions: ['Western', 'Western North'] },
  X: { name: 'Upper West', current_regions: ['Upper West'] },
};

export interface GhanaPostDecoding {
  kind: 'ghanapost_gps';
  code: string;
  /** The area prefix (`GA`). */
  prefix: string;
  /** The region from the prefix's first letter; null for a letter no region has. */
  region: GhanaPostRegion | null;
  /** Always null: the district letters are not published (see above). */
  district: null;
  /** Always false: the point is on GhanaPost's own grid. */
  point_available: false;
  note: string;
}

export const GHANAPOST_POINT_NOTE =
  'The precise point of a GhanaPostGPS address is on GhanaPost’s own grid, which is not published: only GhanaPost’s service (or its app) can give it. ' +
  'This service decodes the region from the prefix and guesses nothing else; send the hex code of the place for a point.';

/** The public part of a canonical GhanaPostGPS address (`GA-123-4567`). */
export function decodeGhanaPost(code: string): GhanaPostDecoding {
  const prefix = code.slice(0, 2).toUpperCase();
  const region = REGIONS[prefix[0]];
  return {
    kind: 'ghanapost_gps',
    code,
    prefix,
    region: region ? { letter: prefix[0], ...region } : null,
    district: null,
    point_available: false,
    note: region
      ? GHANAPOST_POINT_NOTE
      : `${prefix[0]} is the letter of no GhanaPostGPS region; the address may be mistyped. ${GHANAPOST_POINT_NOTE}`,
  };
}
