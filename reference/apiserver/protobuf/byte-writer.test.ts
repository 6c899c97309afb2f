/**
 * ByteWriter against protobufjs' own node writer (BufferWriter, what Writer.create() gives):
 * random sequences of every write method, nested forks around long and short content (lengths
 * of one, two and three bytes), must give the same bytes, and `len` must count the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { seededRandom } from '../server.ts';
import { ByteWriter } from './byte-writer.ts';

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const INTS = [0, 1, 127, 128, 300, 16383, 16384, 2 ** 31 - 1, -1, -(2 ** 31), 2 ** 32 - 1, 2 ** 40, -(2 ** 40), 2 ** 53 - 1];
const LONGS = [...INTS, '9223372036854775807', '-9223372036854775808', '18446744073709551615', '12345678901234'];
const STRINGS = ['', 'a', 'web-1', 'kubernetes.io/hostname', 'ünïcödé', '日本語のラベル', 'x'.repeat(39), 'x'.repeat(40), 'é'.repeat(30), 'y'.repeat(300), '🙂 emoji'];
const BYTES: (string | Uint8Array | number[])[] = ['', 'dg==', 'c2VjcmV0IHZhbHVl', new Uint8Array(0), new Uint8Array([0, 255, 7]), [1, 2, 3], Buffer.from('z'.repeat(200))];

/** One random call, applied to both writers alike. */
type Call = (w: any) => void;

function randomCalls(r: Rand, depth: number, budget: { left: number }): Call[] {
  const calls: Call[] = [];
  const n = 1 + Math.floor(r() * 12);
  for (let i = 0; i < n && budget.left-- > 0; i++) {
    const drawn = pick(r, ['uint32', 'int32', 'sint32', 'uint64', 'int64', 'sint64', 'bool', 'fixed32', 'sfixed32', 'fixed64', 'sfixed64', 'float', 'double', 'string', 'bytes', 'fork', 'fork', 'big']);
    const kind = drawn === 'fork' && depth >= 5 ? 'uint32' : drawn;
    if (kind === 'fork') {
      const inner = randomCalls(r, depth + 1, budget);
      const tag = pick(r, INTS.filter((x) => x >= 0));
      calls.push((w) => {
        w.uint32(tag).fork();
        for (const c of inner) c(w);
        w.ldelim();
      });
    } else if (kind === 'big') {
      // Content long enough for a two- or three-byte length.
      const s = 'q'.repeat(pick(r, [127, 128, 16383, 16384, 20000]));
      calls.push((w) => w.fork().string(s).ldelim());
    } else if (kind === 'string') {
      const v = pick(r, STRINGS);
      calls.push((w) => w.string(v));
    } else if (kind === 'bytes') {
      const v = pick(r, BYTES);
      calls.push((w) => w.bytes(v));
    } else if (kind.endsWith('64')) {
      const v = pick(r, LONGS);
      calls.push((w) => w[kind](v));
    } else if (kind === 'float' || kind === 'double') {
      const v = pick(r, [0, 1.5, -2, 1e10, Number.NaN, Infinity, -0]);
      calls.push((w) => w[kind](v));
    } else if (kind === 'bool') {
      const v = pick(r, [true, false, 0, 1]);
      calls.push((w) => w.bool(v));
    } else {
      const v = pick(r, INTS);
      calls.push((w) => w[kind](v));
    }
  }
  return calls;
}

test('random write sequences: the same bytes as protobufjs\' BufferWriter', () => {
  const r = seededRandom(20261206);
  for (let round = 0; round < 400; round++) {
    const calls = randomCalls(r, 0, { left: 200 });
    const ours = new ByteWriter(8);
    const theirs = protobuf.Writer.create();
    for (const c of calls) {
      c(ours);
      c(theirs);
    }
    assert.equal(ours.len, theirs.len, `round ${round}: len`);
    assert.equal(Buffer.from(ours.finish()).toString('hex'), Buffer.from(theirs.finish()).toString('hex'), `round ${round}`);
  }
});

test('len counts what was written since the innermost fork', () => {
  const w = new ByteWriter();
  w.uint32(10).string('abc');
  assert.equal(w.len, 5);
  w.fork().string('hello');
  assert.equal(w.len, 6);
  w.fork();
  assert.equal(w.len, 0);
  w.ldelim().ldelim();
  assert.equal(w.len, 13);
});

test('a generated encoder writes through it as through its own writer', () => {
  const root = protobuf.Root.fromJSON(<protobuf.INamespace>{
    nested: {
      Inner: { fields: { name: { type: 'string', id: 1 }, n: { type: 'int64', id: 2 } } },
      Outer: { fields: { items: { rule: 'repeated', type: 'Inner', id: 1 }, labels: { keyType: 'string', type: 'string', id: 2 }, data: { type: 'bytes', id: 3 }, flag: { type: 'bool', id: 4 } } },
    },
  });
  const Outer = root.lookupType('Outer');
  const msg = { items: [{ name: 'a', n: -5 }, { name: 'é'.repeat(100), n: 2 ** 40 }], labels: { app: 'web', tier: 'x'.repeat(200) }, data: 'c2VjcmV0', flag: true };
  const ours = Outer.encode(msg, new ByteWriter() as unknown as protobuf.Writer).finish();
  assert.equal(Buffer.from(ours).toString('hex'), Buffer.from(Outer.encode(msg).finish()).toString('hex'));
});

test('ldelim without a fork, and finish with one open, are refused', () => {
  assert.throws(() => new ByteWriter().ldelim(), /without a fork/);
  assert.throws(() => new ByteWriter().fork().finish(), /still open/);
});

test('reset forgets what was written and any fork left open, so a write that threw does not leak into the next', () => {
  const w = new ByteWriter(4);
  w.uint32(10).fork().string('x'.repeat(100));
  w.reset();
  w.uint32(8).uint32(150);
  assert.equal(Buffer.from(w.finish()).toString('hex'), '089601');
});
