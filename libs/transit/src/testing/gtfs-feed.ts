import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Small GTFS feeds for tests: tables as CSV text, zipped (deflate, a minimal
 * PKZIP writer: local headers, central directory, end record), and the test
 * network whose answers are known (see SAMPLE_FEED).
 */

export type GtfsTables = Record<string, string>;

export function gtfsZip(tables: GtfsTables, options: { folder?: string } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(tables)) {
    const fileName = Buffer.from(`${options.folder ? `${options.folder}/` : ''}${name}`, 'utf8');
    const data = Buffer.from(text, 'utf8');
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, packed);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(tables).length, 8);
  end.writeUInt16LE(Object.keys(tables).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Writes the feed as a zip in a fresh temporary folder; returns its path. */
export function writeGtfsZip(tables: GtfsTables, name = 'feed.zip', options: { folder?: string } = {}): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gtfs-')), name);
  writeFileSync(file, gtfsZip(tables, options));
  return file;
}

const lines = (...rows: string[]) => `${rows.join('\n')}\n`;

/**
 * A network with known answers (Africa/Accra, UTC+0, so local times are the
 * UTC times). Stops lie 5.5 km apart or more, so walking links only C and its
 * neighbour C2 (145 m). Weekday service WK and weekend service WE, 2024.
 *
 *   L1  A 07:00 → B (time left empty: interpolated, 07:15) → C 07:30     shape S1
 *   L2  C2 07:35 → D 07:50                                            (C → C2 is a walking transfer)
 *   L4  A 07:05 → D 08:20                                             (one vehicle, slower than L1 + L2)
 *   F   E → G, 20 min, every 600 s from 06:00 to 20:00, exact_times=0  (a trotro: headway only)
 *   X   H → I, 15 min, every 900 s from 06:00 to 09:00, exact_times=1
 *   W   J 10:00 → K 10:40, weekends only
 *   N   A 24:30:00 → C 25:00:00 (past midnight)
 */
export const SAMPLE_FEED: GtfsTables = {
  'agency.txt': lines('agency_id,agency_name,agency_url,agency_timezone', 'T,Test Transit,https://example.com,Africa/Accra'),
  'stops.txt': lines(
    'stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station',
    'A,Alpha,5.6,-0.3,0,',
    'B,Bravo,5.6,-0.25,0,',
    'CS,Central Station,5.6005,-0.2,1,',
    'C,Central,5.6,-0.2,0,CS',
    'C2,Central North,5.6013,-0.2,0,CS',
    'D,Delta,5.65,-0.2,0,',
    'E,Echo,5.55,-0.3,0,',
    'G,Golf,5.55,-0.2,0,',
    'H,Hotel,5.5,-0.3,0,',
    'I,India,5.5,-0.2,0,',
    'J,Juliet,5.45,-0.3,0,',
    'K,Kilo,5.45,-0.2,0,',
  ),
  'routes.txt': lines(
    'route_id,agency_id,route_short_name,route_long_name,route_type,route_color',
    'L1,T,1,Alpha - Central,3,ff0000',
    'L2,T,2,Central - Delta,3,',
    'L4,T,4,Alpha - Delta express,3,',
    'F,T,F,Echo - Golf trotro,3,',
    'X,T,X,Hotel - India,3,',
    'W,T,W,Juliet - Kilo weekend,3,',
    'N,T,N,Night Alpha - Central,3,',
  ),
  'calendar.txt': lines(
    'service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date',
    'WK,1,1,1,1,1,0,0,20240101,20241231',
    'WE,0,0,0,0,0,1,1,20240101,20241231',
  ),
  'trips.txt': lines(
    'route_id,service_id,trip_id,trip_headsign,shape_id',
    'L1,WK,L1a,Central,S1',
    'L2,WK,L2a,Delta,',
    'L4,WK,L4a,Delta,',
    'F,WK,Fa,Golf,',
    'X,WK,Xa,India,',
    'W,WE,Wa,Kilo,',
    'N,WK,Na,Central,',
  ),
  'stop_times.txt': lines(
    'trip_id,arrival_time,departure_time,stop_id,stop_sequence',
    'L1a,07:00:00,07:00:00,A,1',
    'L1a,,,B,2',
    'L1a,07:30:00,07:30:00,C,3',
    'L2a,07:35:00,07:35:00,C2,1',
    'L2a,07:50:00,07:50:00,D,2',
    'L4a,07:05:00,07:05:00,A,1',
    'L4a,08:20:00,08:20:00,D,2',
    'Fa,06:00:00,06:00:00,E,1',
    'Fa,06:20:00,06:20:00,G,2',
    'Xa,06:00:00,06:00:00,H,1',
    'Xa,06:15:00,06:15:00,I,2',
    'Wa,10:00:00,10:00:00,J,1',
    'Wa,10:40:00,10:40:00,K,2',
    'Na,24:30:00,24:30:00,A,1',
    'Na,25:00:00,25:00:00,C,2',
  ),
  'frequencies.txt': lines('trip_id,start_time,end_time,headway_secs,exact_times', 'Fa,06:00:00,20:00:00,600,0', 'Xa,06:00:00,09:00:00,900,1'),
  'shapes.txt': lines(
    'shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence',
    'S1,5.6,-0.3,1',
    'S1,5.601,-0.275,2',
    'S1,5.6,-0.25,3',
    'S1,5.601,-0.225,4',
    'S1,5.6,-0.2,5',
  ),
};

/** Stop positions of SAMPLE_FEED, for queries. */
export const SAMPLE_STOPS = {
  A: { lat: 5.6, lng: -0.3 },
  B: { lat: 5.6, lng: -0.25 },
  C: { lat: 5.6, lng: -0.2 },
  C2: { lat: 5.6013, lng: -0.2 },
  D: { lat: 5.65, lng: -0.2 },
  E: { lat: 5.55, lng: -0.3 },
  G: { lat: 5.55, lng: -0.2 },
  H: { lat: 5.5, lng: -0.3 },
  I: { lat: 5.5, lng: -0.2 },
  J: { lat: 5.45, lng: -0.3 },
  K: { lat: 5.45, lng: -0.2 },
} as const;
