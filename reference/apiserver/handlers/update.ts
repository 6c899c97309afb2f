/** PUT of an object or its status (handlers/update.go): the body replaces the object, under optimistic concurrency. */
import { decodeBody, headerValue } from '../negotiation.ts';
import { errors } from '../status.ts';
import type { Env, Reply, ResourceCall } from '../types.ts';
import { decodeResource, requestOptions } from './decode.ts';
import { decodeStage, placeInNamespace } from './create.ts';
import { guaranteedUpdate } from './guaranteed-update.ts';

export async function update(env: Env, call: ResourceCall, subresource: '' | 'status' | 'finalize'): Promise<Reply> {
  const { def, info } = call;
  const opts = requestOptions(call, 'UpdateOptions');
  const obj = decodeStage(call, () => decodeResource(call, def, decodeBody(headerValue(call.req.headers, 'content-type'), call.req.body), opts.fieldValidation));
  if (obj.metadata.name && obj.metadata.name !== info.name) {
    throw errors.badRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${info.name})`);
  }
  obj.metadata.name = info.name;
  placeInNamespace(def, obj, info.namespace);
  return guaranteedUpdate(env, call, {
    name: info.name,
    namespace: info.namespace,
    subresource,
    dryRun: opts.dryRun,
    compute: () => structuredClone(obj),
  });
}
