/**
 * Field descriptions for the OpenAPI documents (`kubectl explain` prints them). The text is
 * upstream's, as generated from k8s.io/api's doc comments into the kubernetes-types package
 * (see ./host/kubernetes-types.ts, which reads it); this module only joins it to our schemas by
 * walking our schema and upstream's type graph side by side.
 */
import type { Schema } from '../schema/types.ts';

/** One API type: its description and, per field, the field's description and type. */
export interface TypeDoc {
  doc?: string;
  fields: Record<string, { doc?: string; type?: string }>;
}

/** Types by "<package>/<version>.<Name>", e.g. "apps/v1.DeploymentSpec". */
export type TypeDocs = ReadonlyMap<string, TypeDoc>;

/** The package kubernetes-types files a group under: the core group is `core`, others their first label. */
export function packageOf(group: string): string {
  return group === '' ? 'core' : group.split('.')[0]!;
}

/** A copy of `schema` with upstream's descriptions on it and on every field the type graph reaches. */
export function describeSchema(schema: Schema, docs: TypeDocs, typeKey: string | undefined, depth = 0): Schema {
  const type = typeKey ? docs.get(typeKey) : undefined;
  if (!type || depth > 12) return schema;
  const out: Schema = { ...schema };
  if (type.doc && !out.description) out.description = type.doc;
  const props = schema.properties;
  if (props) {
    const described: Record<string, Schema> = {};
    for (const [name, sub] of Object.entries(props)) {
      const field = type.fields[name];
      let child = field?.type ? describeChild(sub, docs, field.type, depth) : sub;
      if (field?.doc) child = { ...child, description: field.doc };
      described[name] = child;
    }
    out.properties = described;
  }
  return out;
}

/** A field's schema against its type: the type itself, or the item/value type of a list or map. */
function describeChild(sub: Schema, docs: TypeDocs, typeKey: string, depth: number): Schema {
  if (sub.type === 'array' && sub.items) return { ...sub, items: describeSchema(sub.items, docs, typeKey, depth + 1) };
  if (sub.additionalProperties && typeof sub.additionalProperties === 'object' && !sub.properties) {
    return { ...sub, additionalProperties: describeSchema(sub.additionalProperties as Schema, docs, typeKey, depth + 1) };
  }
  return describeSchema(sub, docs, typeKey, depth + 1);
}
