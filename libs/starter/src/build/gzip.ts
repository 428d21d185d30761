import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * gzip (RFC 1952) with nothing that varies between runs or machines in its
 * header: no file name, modification time 0, OS "unknown" (zlib's own gzip
 * writer puts the build platform there), deflate at level 9 with fixed
 * parameters. The same bytes in give the same bytes out for a given zlib
 * version, which the pack manifest records.
 */
export function gzipFixed(data: Buffer): Buffer {
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]);
  const body = deflateRawSync(data, { level: 9, memLevel: 9, windowBits: 15, strategy: constants.Z_DEFAULT_STRATEGY });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(data), 0);
  trailer.writeUInt32LE(data.length % 2 ** 32, 4);
  return Buffer.concat([header, body, trailer]);
}
