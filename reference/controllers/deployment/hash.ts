/**
 * The pod-template-hash: what names a Deployment's ReplicaSet (`<deployment>-<hash>`) and labels
 * its pods, so ReplicaSets of different templates never select each other's pods. Upstream
 * (pkg/controller/controller_utils.go ComputeHash) hashes the template with FNV-1a (32 bit),
 * mixing in .status.collisionCount when set, and encodes the decimal value with
 * rand.SafeEncodeString (no vowels, no 0/1/3, so no words and no ambiguous characters). The
 * reference hashes a canonical JSON of the template rather than Go's spew dump, so the values
 * differ from upstream's; their shape and properties are the same.
 */

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    // As apimachinery's Semantic.DeepEqual sees a Go struct: null, {} and [] are the zero value, the
    // same as absent (kubectl sends "creationTimestamp": null and "resources": {} inside templates).
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => !isZero(v)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function isZero(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.values(v as object).every(isZero);
}

function fnv32a(text: string, seed = 0x811c9dc5): number {
  let h = seed;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString: each character of the decimal string mapped into the safe alphabet. */
export function safeEncode(text: string): string {
  return [...text].map((c) => SAFE_ALPHABET[c.charCodeAt(0) % SAFE_ALPHABET.length]).join('');
}

export function podTemplateHash(template: unknown, collisionCount?: number): string {
  const text = canonical(template) + (collisionCount ? `#${collisionCount}` : '');
  return safeEncode(String(fnv32a(text)));
}

/** EqualIgnoreHash: two templates are the same once the pod-template-hash label is left out. */
export function equalIgnoringHash(a: any, b: any): boolean {
  const strip = (t: any) => {
    const labels = { ...(t?.metadata?.labels ?? {}) };
    delete labels['pod-template-hash'];
    return canonical({ ...t, metadata: { ...(t?.metadata ?? {}), labels } });
  };
  return strip(a) === strip(b);
}
