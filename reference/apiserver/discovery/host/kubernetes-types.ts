/**
 * Reads upstream's API documentation from the kubernetes-types package (its .d.ts files carry
 * k8s.io/api's doc comments on every type and field, generated from the same Go comments
 * kube-apiserver's OpenAPI uses). Read once, on the first OpenAPI document a server builds.
 * The files are regular: `/** doc *\/` before `export interface Name {` and before each
 * `field?: Type;`, with `import { A, B } from "../core/v1";` naming where other types live.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import type { TypeDoc, TypeDocs } from '../describe.ts';

const DOC = String.raw`\/\*\*([\s\S]*?)\*\/`;
const INTERFACE = new RegExp(String.raw`(?:${DOC}\s*)?export interface (\w+) \{([\s\S]*?)\n\}`, 'g');
const FIELD = new RegExp(String.raw`(?:${DOC}\s*)?(?:readonly )?(\w+)\??: ([^;]+);`, 'g');
const IMPORT = /import \{([^}]*)\} from "([^"]+)";/g;

function cleanDoc(raw: string | undefined): string | undefined {
  const text = raw?.replace(/\n\s*\* ?/g, '\n').trim();
  return text || undefined;
}

/** The referenced type's name in a field's type text: `Array<X>`, `{ [name: string]: X }`, `X`. */
function typeName(text: string): string | undefined {
  return /([A-Z][A-Za-z0-9]*)\s*>?\s*\}?\s*$/.exec(text.trim())?.[1];
}

function parseFile(moduleKey: string, text: string, out: Map<string, TypeDoc>): void {
  const imports = new Map<string, string>();
  for (const m of text.matchAll(IMPORT)) {
    const target = join(dirname(moduleKey), m[2]!).replace(/\\/g, '/');
    for (const name of m[1]!.split(',').map((s) => s.trim()).filter(Boolean)) imports.set(name, target);
  }
  for (const m of text.matchAll(INTERFACE)) {
    const fields: TypeDoc['fields'] = {};
    for (const f of m[3]!.matchAll(FIELD)) {
      const name = typeName(f[3]!);
      const type = name ? `${imports.get(name) ?? moduleKey}.${name}` : undefined;
      fields[f[2]!] = { ...(cleanDoc(f[1]) ? { doc: cleanDoc(f[1]) } : {}), ...(type ? { type } : {}) };
    }
    const doc = cleanDoc(m[1]);
    out.set(`${moduleKey}.${m[2]!}`, { ...(doc ? { doc } : {}), fields });
  }
}

function walk(dir: string, base: string, out: Map<string, TypeDoc>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, base, out);
    else if (entry.name.endsWith('.d.ts')) parseFile(relative(base, path).replace(/\\/g, '/').replace(/\.d\.ts$/, ''), readFileSync(path, 'utf8'), out);
  }
}

let cached: TypeDocs | undefined;

/** Every type the package documents; empty when the package is not installed. */
export function kubernetesTypeDocs(): TypeDocs {
  if (cached) return cached;
  const out = new Map<string, TypeDoc>();
  try {
    const root = dirname(createRequire(import.meta.url).resolve('kubernetes-types/package.json'));
    if (existsSync(root)) walk(root, root, out);
  } catch {
    // Not installed: documents go without descriptions.
  }
  cached = out;
  return out;
}
