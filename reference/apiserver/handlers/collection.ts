/** DELETE of a collection (deletecollection): every object the selectors match, each deleted as a single DELETE would be. */
import { apiVersionOf } from '../resources/registry.ts';
import { decodeObject } from '../storage/codec.ts';
import type { Env, Reply, ResourceCall } from '../types.ts';
import { reply } from '../types.ts';
import { deleteObject, parseDeleteOptions } from './delete.ts';
import { matches, parseFilter } from './read.ts';

export async function deleteCollection(env: Env, call: ResourceCall): Promise<Reply> {
  const { def } = call;
  const filter = parseFilter(call);
  const opts = parseDeleteOptions(call);
  const page = await env.backend.range(env.store.prefix(def, call.info.namespace));
  const deleted: any[] = [];
  for (const kv of page.kvs) {
    const obj = decodeObject(kv);
    if (!matches(filter, obj)) continue;
    try {
      const r = await deleteObject(env, call, obj.metadata.name, obj.metadata.namespace ?? '', opts);
      deleted.push(r.body && (r.body as any).kind === 'Status' ? obj : r.body);
    } catch (e) {
      // Gone already (someone else deleted it meanwhile): nothing to do.
      if (!(e instanceof Error && (e as any).code === 404)) throw e;
    }
  }
  return reply(200, { kind: `${def.kind}List`, apiVersion: apiVersionOf(def), metadata: { resourceVersion: String(env.backend.currentRevision()) }, items: deleted });
}

