/**
 * Reads one string out of a value the API server stored, whichever encoding it is in: upstream's
 * protobuf envelope (the 4 bytes `k8s\0`, then a runtime.Unknown) or a JSON document (custom
 * resources; targets that store JSON). Written from the wire format alone, with no schema and no
 * code shared with any implementation under test: a path of field numbers is walked through the
 * length-delimited fields, so a field stored under another number than upstream's is not found.
 *
 * Field numbers a step needs (kubernetes/apimachinery pkg/runtime/generated.proto,
 * pkg/apis/meta/v1/generated.proto; kubernetes/api core/v1/generated.proto) are in STORED_FIELDS.
 */
const MAGIC = 'k8s\u0000';

/** Paths from the runtime.Unknown: typeMeta = 1 (kind = 2), raw = 2; Pod.metadata = 1 (uid = 5), Pod.status = 3 (phase = 1). */
export const STORED_FIELDS = {
  kind: { proto: [1, 2], json: ['kind'] },
  uid: { proto: [2, 1, 5], json: ['metadata', 'uid'] },
  podPhase: { proto: [2, 3, 1], json: ['status', 'phase'] },
} as const;

export function storedString(value: string, field: { proto: readonly number[]; json: readonly string[] }): string | undefined {
  if (!value.startsWith(MAGIC)) {
    let at: any = JSON.parse(value);
    for (const k of field.json) at = at?.[k];
    return typeof at === 'string' ? at : undefined;
  }
  let bytes: Uint8Array | undefined = Buffer.from(value.slice(MAGIC.length), 'latin1');
  for (const number of field.proto) bytes = bytes && lengthDelimited(bytes, number);
  return bytes && Buffer.from(bytes).toString('utf8');
}

/** The first length-delimited field with this number in a message, or undefined. */
export function lengthDelimited(msg: Uint8Array, number: number): Uint8Array | undefined {
  let at = 0;
  while (at < msg.length) {
    let tag: number;
    [tag, at] = varint(msg, at);
    const wireType = tag & 7;
    if (wireType === 2) {
      let length: number;
      [length, at] = varint(msg, at);
      if (tag >>> 3 === number) return msg.subarray(at, at + length);
      at += length;
    } else if (wireType === 0) at = varint(msg, at)[1];
    else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else return undefined; // groups are not used by the Kubernetes API types
  }
  return undefined;
}

function varint(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  for (let shift = 0; at < bytes.length; shift += 7) {
    const b = bytes[at++]!;
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  return [value, at];
}
