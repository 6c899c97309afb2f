/**
 * pods/log (pkg/registry/core/pod/rest/log.go, pkg/registry/core/pod/strategy.go LogLocation):
 * the API server finds the pod's node and container and streams the kubelet's
 * /containerLogs answer back as text/plain. The checks before it reaches the kubelet are
 * upstream's, with their messages: a pod with several containers needs `container`; the
 * container must be one of the pod's; the pod must be bound to a node.
 */
import { errors } from '../status.ts';
import type { Env, Reply, ResourceCall } from '../types.ts';
import { reply } from '../types.ts';

export async function podLog(env: Env, call: ResourceCall): Promise<Reply> {
  const pod = (await env.store.mustGet(call.def, call.info.namespace, call.info.name)).obj;
  const name = pod.metadata.name;
  const containers: any[] = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  let container = call.query.get('container') ?? '';
  if (!container) {
    if ((pod.spec?.containers ?? []).length !== 1) {
      throw errors.badRequest(`a container name must be specified for pod ${name}, choose one of: [${(pod.spec?.containers ?? []).map((c: any) => c.name).join(' ')}]`);
    }
    container = pod.spec.containers[0].name;
  }
  if (!containers.some((c) => c.name === container)) throw errors.badRequest(`container ${container} is not valid for pod ${name}`);
  const node = pod.spec?.nodeName;
  if (!node) throw errors.badRequest(`pod ${name} does not have a host assigned`);
  if (!env.nodes) throw errors.badRequest(`no kubelet answers for node ${node}`);
  const tail = call.query.get('tailLines');
  const answer = await env.nodes.containerLogs(node, call.info.namespace, name, container, {
    previous: isTrue(call.query.get('previous')),
    timestamps: isTrue(call.query.get('timestamps')),
    ...(tail !== null && /^\d+$/.test(tail) ? { tailLines: Number(tail) } : {}),
  });
  if (answer.status !== 200) throw errors.badRequest(answer.text);
  return reply(200, answer.text, { 'content-type': 'text/plain' });
}

function isTrue(v: string | null): boolean {
  return v !== null && v !== '' && v.toLowerCase() !== 'false' && v !== '0';
}
