/**
 * Ages as kubectl shows them: k8s.io/apimachinery/pkg/util/duration.HumanDuration
 * ("45s", "3m10s", "2h5m", "4d3h", "2y10d"), computed from RFC 3339 timestamps and the
 * injected clock — no Date objects in the core.
 */

/** Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function parseRfc3339_ms(s: unknown): number | undefined {
  if (typeof s !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z$/.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60_000 + se * 1000;
}

export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${hours / 24}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 365 * 2) return `${days}d`;
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${days / 365}y` : `${Math.floor(days / 365)}y${days % 365}d`;
  return `${Math.floor(days / 365)}y`;
}

/** translateTimestampSince: "<unknown>" without a timestamp. */
export function age(timestamp: unknown, now_ms: number): string {
  const t = parseRfc3339_ms(timestamp);
  return t === undefined ? '<unknown>' : humanDuration(now_ms - t);
}
