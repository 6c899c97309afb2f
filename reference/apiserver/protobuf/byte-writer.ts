/**
 * A protobuf wire writer that writes straight into one growing buffer: the methods protobufjs'
 * Writer offers (uint32, string, bytes, fork, ldelim, …), called the same way — by codec.ts's
 * writeMessage and by protobufjs' own generated encoders, which take any writer — and writing the
 * same bytes as its node BufferWriter (byte-writer.test.ts compares the two).
 *
 * protobufjs' Writer records every call as an operation object in a linked list, a state object
 * per fork, and copies everything into the buffer at finish(): on a fleet of pods those objects
 * were a tenth of all garbage. Here a fork reserves one byte for the length of what follows; at
 * ldelim a length that needs more (128 bytes of content or more) moves the content up by the
 * difference, once per nested message.
 *
 * Numbers that protobufjs takes as 64-bit (int64, uint64, sint64, fixed64, sfixed64) go through
 * its own LongBits conversion, so a number, a decimal string or a Long reads the same way.
 */
import protobuf from 'protobufjs';

const LongBits = (protobuf.util as unknown as { LongBits: { from(value: unknown): Bits; fromNumber(value: number): Bits } }).LongBits;
interface Bits {
  lo: number;
  hi: number;
  zzEncode(): Bits;
}

/** A short ASCII string is copied by hand: a call into Buffer#write costs more than the loop. */
const SHORT_STRING = 40;

export class ByteWriter {
  private buf: Buffer;
  private pos = 0;
  /** Where each open fork's reserved length byte sits, innermost last. */
  private readonly forks: number[] = [];

  constructor(capacity = 1024) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  /** Bytes written since the innermost open fork (or in all), as protobufjs' Writer#len counts them. */
  get len(): number {
    const open = this.forks.length;
    return open === 0 ? this.pos : this.pos - this.forks[open - 1]! - 1;
  }

  uint32(value: number): this {
    let v = value >>> 0;
    this.room(5);
    const buf = this.buf;
    let pos = this.pos;
    while (v > 127) {
      buf[pos++] = (v & 127) | 128;
      v >>>= 7;
    }
    buf[pos++] = v;
    this.pos = pos;
    return this;
  }

  int32(value: number): this {
    // A negative int32 is sign-extended to ten bytes, as the protobuf spec (and protobufjs) write it.
    return (value |= 0) < 0 ? this.varint64(LongBits.fromNumber(value)) : this.uint32(value);
  }

  sint32(value: number): this {
    return this.uint32(((value << 1) ^ (value >> 31)) >>> 0);
  }

  uint64(value: unknown): this {
    return this.varint64(LongBits.from(value));
  }

  int64(value: unknown): this {
    return this.uint64(value);
  }

  sint64(value: unknown): this {
    return this.varint64(LongBits.from(value).zzEncode());
  }

  bool(value: unknown): this {
    this.room(1);
    this.buf[this.pos++] = value ? 1 : 0;
    return this;
  }

  fixed32(value: number): this {
    this.room(4);
    this.buf.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
    return this;
  }

  sfixed32(value: number): this {
    return this.fixed32(value);
  }

  fixed64(value: unknown): this {
    const bits = LongBits.from(value);
    return this.fixed32(bits.lo).fixed32(bits.hi);
  }

  sfixed64(value: unknown): this {
    return this.fixed64(value);
  }

  float(value: number): this {
    this.room(4);
    this.buf.writeFloatLE(value, this.pos);
    this.pos += 4;
    return this;
  }

  double(value: number): this {
    this.room(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
    return this;
  }

  /** Bytes, or a base64 string of them (decoded as node's BufferWriter decodes it). */
  bytes(value: Uint8Array | number[] | string): this {
    const data = typeof value === 'string' ? Buffer.from(value, 'base64') : value;
    const len = data.length >>> 0;
    this.uint32(len);
    if (len === 0) return this;
    this.room(len);
    this.buf.set(data, this.pos);
    this.pos += len;
    return this;
  }

  string(value: string): this {
    const len = Buffer.byteLength(value);
    this.uint32(len);
    if (len === 0) return this;
    this.room(len);
    if (len === value.length && len < SHORT_STRING) {
      // As many bytes as characters: every one is ASCII.
      const buf = this.buf;
      const pos = this.pos;
      for (let i = 0; i < len; i++) buf[pos + i] = value.charCodeAt(i);
    } else {
      this.buf.write(value, this.pos, len, 'utf8');
    }
    this.pos += len;
    return this;
  }

  /** Starts a length-delimited part: one byte is kept for its length. */
  fork(): this {
    this.room(1);
    this.forks.push(this.pos);
    this.pos++;
    return this;
  }

  /** Ends the innermost fork: its length goes in front of it. */
  ldelim(): this {
    const at = this.forks.pop();
    if (at === undefined) throw new Error('ByteWriter: ldelim without a fork');
    const start = at + 1;
    const len = this.pos - start;
    const width = varintWidth(len);
    if (width > 1) {
      this.room(width - 1);
      this.buf.copyWithin(at + width, start, this.pos);
      this.pos += width - 1;
    }
    const end = this.pos;
    this.pos = at;
    this.uint32(len);
    this.pos = end;
    return this;
  }

  /** Forgets what was written (and any fork left open by a write that threw), keeping the buffer. */
  reset(): this {
    this.pos = 0;
    this.forks.length = 0;
    return this;
  }

  /** The bytes written, in a buffer of their own. */
  finish(): Uint8Array {
    if (this.forks.length > 0) throw new Error('ByteWriter: finish with a fork still open');
    const out = new Uint8Array(this.pos);
    out.set(this.buf.subarray(0, this.pos));
    this.pos = 0;
    return out;
  }

  private varint64(bits: Bits): this {
    this.room(10);
    const buf = this.buf;
    let pos = this.pos;
    let lo = bits.lo;
    let hi = bits.hi;
    while (hi) {
      buf[pos++] = (lo & 127) | 128;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    while (lo > 127) {
      buf[pos++] = (lo & 127) | 128;
      lo >>>= 7;
    }
    buf[pos++] = lo;
    this.pos = pos;
    return this;
  }

  /** Makes room for `n` more bytes. */
  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }
}

function varintWidth(n: number): number {
  return n < 128 ? 1 : n < 16384 ? 2 : n < 2097152 ? 3 : n < 268435456 ? 4 : 5;
}
