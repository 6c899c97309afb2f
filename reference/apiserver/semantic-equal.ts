/**
 * Equality as apimachinery's equality.Semantic.DeepEqual sees two decoded objects
 * (kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/api/equality/semantic.go over
 * third_party/forked/golang/reflect/deep_equal.go): key order is irrelevant (a JSON object is
 * decoded into a struct or map), and an empty slice or map equals an absent (nil) one.
 */
function isEmptyish(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v as object).length === 0;
}

export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmptyish(a) && isEmptyish(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)])) if (!semanticEqual(ra[k], rb[k])) return false;
  return true;
}
