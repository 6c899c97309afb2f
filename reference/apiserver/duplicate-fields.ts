/**
 * Duplicate keys in a JSON body. JSON.parse keeps the last of two equal keys silently; upstream's
 * strict decoder (sigs.k8s.io/json with DisallowDuplicateFields, used by
 * k8s.io/apimachinery/pkg/runtime/serializer/json for fieldValidation=Strict and Warn) reports
 * each as `duplicate field "<path>"`, the path dotted from the root with array indexes in
 * brackets (`spec.template.spec.containers[0].imagePullPolicy`). Strict makes them a 400 with
 * the unknown fields; Warn sends them as Warning headers; Ignore drops them.
 *
 * One pass over the text, tracking only the open objects' keys; the body was already parsed
 * (this runs after JSON.parse accepted it), so the scanner need not validate anything.
 */

/** Bodies keep their duplicates here, found once when the body is parsed. */
const duplicatesOf = new WeakMap<object, string[]>();

export function rememberDuplicateFields(body: unknown, text: string): void {
  if (typeof body !== 'object' || body === null) return;
  const found = duplicateFields(text);
  if (found.length > 0) duplicatesOf.set(body, found);
}

export function duplicateFieldsOf(body: unknown): readonly string[] {
  return (typeof body === 'object' && body !== null && duplicatesOf.get(body)) || [];
}

const QUOTE = 34;
const BACKSLASH = 92;

/**
 * Every duplicated key's path, in document order, each once. The open containers are kept in
 * parallel arrays (keys seen, for objects; the current key or index), not objects per level:
 * this runs on every JSON body.
 */
export function duplicateFields(text: string): string[] {
  const out: string[] = [];
  const keys: (Set<string> | null)[] = [];
  const current: (string | number)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const seen = keys.length > 0 ? keys[keys.length - 1] : null;
      if (expectKey && seen) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (seen.has(key)) {
          const path = pathOf(current, key);
          if (!out.includes(path)) out.push(path);
        } else seen.add(key);
        current[current.length - 1] = key;
        expectKey = false;
      }
      i = end;
    } else if (c === 123 /* { */) {
      keys.push(new Set());
      current.push('');
      expectKey = true;
    } else if (c === 91 /* [ */) {
      keys.push(null);
      current.push(0);
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      keys.pop();
      current.pop();
      expectKey = false;
    } else if (c === 44 /* , */ && keys.length > 0) {
      const top = current[current.length - 1]!;
      if (typeof top === 'number') current[current.length - 1] = top + 1;
      else expectKey = true;
    }
  }
  return out;
}

/** The index of the closing quote of the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  let i = text.indexOf('"', start + 1);
  while (i > 0) {
    // A quote is escaped when an odd number of backslashes precede it.
    let slashes = 0;
    while (text.charCodeAt(i - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return i;
    i = text.indexOf('"', i + 1);
  }
  return text.length - 1;
}

/** `spec.containers[0].image`: the open containers' keys and indexes, then the duplicated key. */
function pathOf(current: readonly (string | number)[], key: string): string {
  let path = '';
  // The last entry is the object holding `key`; the ones before it lead there.
  for (let i = 0; i < current.length - 1; i++) {
    const step = current[i]!;
    path += typeof step === 'number' ? `[${step}]` : path === '' ? step : `.${step}`;
  }
  return path === '' ? key : `${path}.${key}`;
}
