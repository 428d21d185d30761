/**
 * The part of the protocol-buffers wire format the OSM PBF format uses
 * (protobuf.dev/programming-guides/encoding): varints, zigzag, length-delimited
 * fields and packed repeated scalars. Numbers stay JavaScript numbers: OSM ids
 * and coordinates fit in 53 bits.
 */
export const WIRE = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;

export class ProtobufError extends Error {}

export class ProtoReader {
  pos: number;

  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** The next field's key: number and wire type. */
  key(): { field: number; wire: number } {
    const key = this.varint();
    return { field: Math.floor(key / 8), wire: key & 7 };
  }

  varint(): number {
    const start = this.pos;
    let result = 0;
    let multiplier = 1;
    // Seven bytes carry 49 bits: exact as a double. Longer varints take the BigInt path.
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.end) throw new ProtobufError('truncated varint');
      const byte = this.buf[this.pos++];
      result += (byte & 0x7f) * multiplier;
      if (byte < 0x80) return result;
      multiplier *= 128;
    }
    this.pos = start;
    return this.longVarint();
  }

  /** A varint of 8-10 bytes; a 10-byte one is a negative int64 in two's complement. */
  private longVarint(): number {
    let result = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError('truncated varint');
      const byte = this.buf[this.pos++];
      result |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if (byte < 0x80) return Number(BigInt.asIntN(64, result));
    }
    throw new ProtobufError('varint longer than 10 bytes');
  }

  /** sint32/sint64 (zigzag). */
  svarint(): number {
    const value = this.varint();
    return value % 2 === 1 ? -(value + 1) / 2 : value / 2;
  }

  /** A length-delimited field's bounds, skipped over. */
  bytes(): { start: number; end: number } {
    const length = this.varint();
    const start = this.pos;
    const end = start + length;
    if (end > this.end) throw new ProtobufError('length-delimited field runs past its message');
    this.pos = end;
    return { start, end };
  }

  sub(): ProtoReader {
    const { start, end } = this.bytes();
    return new ProtoReader(this.buf, start, end);
  }

  view(): Uint8Array {
    const { start, end } = this.bytes();
    return this.buf.subarray(start, end);
  }

  string(): string {
    return DECODER.decode(this.view());
  }

  skip(wire: number): void {
    switch (wire) {
      case WIRE.varint:
        this.varint();
        return;
      case WIRE.fixed64:
        this.pos += 8;
        break;
      case WIRE.bytes:
        this.bytes();
        return;
      case WIRE.fixed32:
        this.pos += 4;
        break;
      default:
        throw new ProtobufError(`unsupported wire type ${wire}`);
    }
    if (this.pos > this.end) throw new ProtobufError('field runs past its message');
  }

  /** A packed repeated varint field (or, wire type 0, a single unpacked element) as numbers. */
  packed(wire: number, signed: boolean, into: number[] = []): number[] {
    if (wire !== WIRE.bytes) {
      into.push(signed ? this.svarint() : this.varint());
      return into;
    }
    const { start, end } = this.bytes();
    const inner = new ProtoReader(this.buf, start, end);
    while (!inner.done) into.push(signed ? inner.svarint() : inner.varint());
    return into;
  }
}

const DECODER = new TextDecoder('utf-8');
