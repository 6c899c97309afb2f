/**
 * An Event's name as client-go's recorder makes it: `<object>.<unix nanoseconds in hex>`
 * (tools/record/event.go makeEvent: fmt.Sprintf("%v.%x", ref.Name, t.UnixNano())).
 *
 * Upstream's nanosecond clock keeps apart the events two components record about one object in
 * the same millisecond (the scheduler's Scheduled and the kubelet's Pulling). The reference's
 * clocks count milliseconds, so the nanoseconds within one are made up of the recorder's
 * identity (which component, which node) and its own sequence: each recorder gets names no
 * other recorder makes, with no randomness drawn (that would shift the seeded choices).
 */
export function eventName(objectName: string, now_ms: number, recorder: string, seq: number): string {
  const nanos = BigInt(now_ms) * 1_000_000n + BigInt(fnv1a(recorder) % 1000) * 1000n + BigInt(seq % 1000);
  return `${objectName}.${nanos.toString(16)}`;
}

/** FNV-1a, 32 bits: a stable small number per recorder identity. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
