import { ProtoReader } from './protobuf.js';
import { ProtoWriter } from './testing/pbf-writer.js';

describe('ProtoReader', () => {
  it('reads varints beyond 32 bits, zigzag values and packed fields as the writer wrote them', () => {
    const values = [0, 1, 127, 128, 300, 2 ** 31, 2 ** 35 + 7, 11_000_000_000, Number.MAX_SAFE_INTEGER];
    const signed = [0, -1, 1, -64, 64, -(2 ** 33), 2 ** 33, -11_000_000_000];
    const message = new ProtoWriter().packedField(1, values, false).packedField(2, signed, true).svarintField(3, -1234567890123).bytesField(4, 'Kumasi – Ɛ').finish();
    const reader = new ProtoReader(message);
    const read: Record<number, unknown> = {};
    while (!reader.done) {
      const { field, wire } = reader.key();
      if (field === 1) read[1] = reader.packed(wire, false);
      else if (field === 2) read[2] = reader.packed(wire, true);
      else if (field === 3) read[3] = reader.svarint();
      else read[4] = reader.string();
    }
    expect(read).toEqual({ 1: values, 2: signed, 3: -1234567890123, 4: 'Kumasi – Ɛ' });
  });

  it('reads a 10-byte varint as a negative int64', () => {
    // -2 as int64: 0xFFFFFFFFFFFFFFFE in two's complement.
    const bytes = Uint8Array.from([0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(new ProtoReader(bytes).varint()).toBe(-2);
  });

  it('refuses truncated input instead of reading past the message', () => {
    expect(() => new ProtoReader(Uint8Array.from([0x80, 0x80])).varint()).toThrow('truncated varint');
    const lengthTooLong = Uint8Array.from([0x0a, 0x05, 0x41]);
    const reader = new ProtoReader(lengthTooLong);
    reader.key();
    expect(() => reader.bytes()).toThrow('runs past');
  });
});
