/**
 * Query parameters as apimachinery decodes them into ListOptions / GetOptions / PatchOptions.
 *
 * Booleans follow Convert_Slice_string_To_bool and Convert_Slice_string_To_Pointer_bool
 * (kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/runtime/conversion.go): only an absent
 * parameter, "false" (any case) or "0" is false; anything else, the empty string and "True" included,
 * is true. Other official client libraries send `?watch=True`, so a strict `=== 'true'` check turns
 * their watch into a list.
 */

/** A boolean query parameter; absent is false. */
export function queryBool(query: URLSearchParams, name: string): boolean {
  return queryOptionalBool(query, name) ?? false;
}

/** A `*bool` query parameter (sendInitialEvents): undefined when absent, else as queryBool. */
export function queryOptionalBool(query: URLSearchParams, name: string): boolean | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}
