/**
 * Kubernetes timestamps from the injected clock's milliseconds, with no Date object: the cores'
 * one formatter (metav1.Time and metav1.MicroTime).
 */
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * RFC 3339 in UTC with second precision, as metav1.Time marshals. Computed from the injected
 * clock's milliseconds (Howard Hinnant's civil-from-days), so no Date object is involved.
 */
export function rfc3339(ms: number): string {
  const secs = Math.floor(ms / 1000);
  const days = Math.floor(secs / 86400);
  const rem = secs - days * 86400;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(Math.floor(rem / 3600))}:${pad(Math.floor((rem % 3600) / 60))}:${pad(rem % 60)}Z`;
}

/** metav1.MicroTime as it marshals: RFC 3339 with six fractional digits (Lease renewTime, Event times). */
export function microTime(ms: number): string {
  return `${rfc3339(ms).slice(0, -1)}.${pad(Math.floor(((ms % 1000) + 1000) % 1000), 3)}000Z`;
}

/** Milliseconds with three fractional digits, as `kubectl logs --timestamps` lines carry (ISO 8601). */
export function rfc3339Nano(ms: number): string {
  return `${rfc3339(ms).slice(0, -1)}.${pad(Math.floor(((ms % 1000) + 1000) % 1000), 3)}Z`;
}

/**
 * Event recorders (the `recorder` argument of eventName): each writes its sub-microsecond digits,
 * so two recorders naming events of one object in one millisecond never pick the same name.
 */
export const EVENT_RECORDER = { scheduler: 0, kubelet: 1 } as const;

/**
 * An Event's name as client-go's recorder makes it, `<object>.<unix nanos in hex>`
 * (tools/record/event.go makeEvent: fmt.Sprintf("%v.%x", ref.Name, t.UnixNano())). Real
 * nanoseconds keep two recorders' names apart; a millisecond clock (virtual in the suite) does
 * not: the scheduler's Scheduled and the kubelet's Pulling of one pod fall in the same
 * millisecond, and the second create was refused AlreadyExists — its event lost. So below the
 * millisecond: the recorder's slot (microseconds) and its sequence number (nanoseconds, 1,000
 * names per millisecond and recorder).
 */
export function eventName(object: string, now_ms: number, recorder: number, seq: number): string {
  return `${object}.${(BigInt(Math.floor(now_ms)) * 1_000_000n + BigInt(recorder * 1000 + (seq % 1000))).toString(16)}`;
}
