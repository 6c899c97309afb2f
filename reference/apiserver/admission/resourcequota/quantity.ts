/**
 * resource.Quantity for quota arithmetic: exact sums in milli-units (BigInt), printed back the
 * way k8s.io/apimachinery/pkg/api/resource/quantity.go String() canonicalises a value: in the
 * format of the quantity it came from (binary suffixes Ki, Mi, Gi… for a BinarySI value, SI
 * suffixes m, k, M, G… otherwise), with the largest suffix that keeps the mantissa an integer.
 */

export interface Quantity {
  milli: bigint;
  binary: boolean;
}

const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

export const ZERO: Quantity = { milli: 0n, binary: false };

/** Parses a quantity ("500m", "1.5", "128Mi", "1e3", or a bare number); undefined when it does not. */
export function parseQuantity(value: unknown): Quantity | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  if (text === undefined) return undefined;
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:([eE])([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]?))$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const digits = BigInt(`${m[2] || '0'}${m[3] ?? ''}`);
  const fraction = (m[3] ?? '').length;
  const sign = m[1] === '-' ? -1n : 1n;
  const binary = m[6] !== undefined && m[6] in BINARY;
  // value = digits × 10^-fraction × scale; in milli-units, rounded up as upstream rounds a quantity.
  let num = digits * 1000n;
  let den = 10n ** BigInt(fraction);
  if (binary) num *= 2n ** BigInt(BINARY[m[6]!]!);
  else {
    const exp = m[4] ? Number(m[5]) : DECIMAL[m[6] ?? '']!;
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(-exp);
  }
  return { milli: sign * ((num + den - 1n) / den), binary };
}

export function add(a: Quantity, b: Quantity): Quantity {
  // Quantity.Add keeps the receiver's format; a sum that starts from nothing takes the first term's.
  return { milli: a.milli + b.milli, binary: a === ZERO ? b.binary : a.binary };
}

export function formatQuantity(q: Quantity): string {
  const { milli } = q;
  if (milli === 0n) return '0';
  if (milli % 1000n !== 0n) return `${milli}m`;
  const units = milli / 1000n;
  // A BinarySI value under 1024 is printed as DecimalSI; above, a whole multiple of the largest suffix or plain.
  if (q.binary && (units >= 1024n || units <= -1024n)) {
    for (const [suffix, bits] of Object.entries(BINARY).reverse()) {
      const scale = 2n ** BigInt(bits);
      if (units % scale === 0n) return `${units / scale}${suffix}`;
    }
    return String(units);
  }
  for (const [suffix, exp] of Object.entries(DECIMAL).filter(([, e]) => e > 0).reverse()) {
    const scale = 10n ** BigInt(exp);
    if (units % scale === 0n) return `${units / scale}${suffix}`;
  }
  return String(units);
}
