/** Small helpers the Kubernetes API steps share: paths and response checks that explain themselves. */
import assert from 'node:assert/strict';
import type { KubeFacet, KubeResponse, RequestTraceEntry } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';

export function configMapsPath(kube: KubeFacet, name?: string): string {
  const base = `/api/v1/namespaces/${kube.namespace}/configmaps`;
  return name ? `${base}/${encodeURIComponent(name)}` : base;
}

/** Assert a 2xx answer, showing the Status the server sent otherwise. */
export function expectSuccess(res: KubeResponse, what: string): any {
  assert.ok(res.status >= 200 && res.status < 300, `${what}: expected success, got ${res.status} ${res.text.slice(0, 500)}`);
  return res.json;
}

export async function createConfigMap(kube: KubeFacet, name: string, data: Record<string, string> = { v: '0' }): Promise<any> {
  const res = await kube.request({
    method: 'POST',
    path: configMapsPath(kube),
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data },
  });
  return expectSuccess(res, `create ConfigMap "${name}"`);
}

export async function getConfigMap(kube: KubeFacet, name: string): Promise<any> {
  return expectSuccess(await kube.request({ method: 'GET', path: configMapsPath(kube, name) }), `get ConfigMap "${name}"`);
}

/** `{ns}` in a feature's string stands for the namespace the scenario owns. */
export function expandNs(kube: KubeFacet, text: string): string {
  return text.replaceAll('{ns}', kube.namespace);
}

/** The label under which a step keeps the last response, for "the response status is …". */
export const LAST_RESPONSE = 'last response';

/** The core group's resources the steps name; anything else must be spelt group/resource. */
const CORE_RESOURCES = new Set(['pods', 'configmaps', 'secrets', 'services', 'endpoints', 'serviceaccounts', 'nodes', 'namespaces', 'events']);

/** "pods" → { group: '', resource: 'pods' }; "apps/deployments" → { group: 'apps', … }. */
export function groupResource(text: string): { group: string; resource: string } {
  const slash = text.indexOf('/');
  if (slash >= 0) return { group: text.slice(0, slash), resource: text.slice(slash + 1) };
  if (!CORE_RESOURCES.has(text)) throw new Error(`say which API group "${text}" is in, as group/${text}`);
  return { group: '', resource: text };
}

/** The collection path of a resource in a namespace (or cluster-wide when namespace is empty). */
export function collectionPath(group: string, resource: string, namespace: string): string {
  const base = group === '' ? '/api/v1' : `/apis/${group}/v1`;
  return namespace ? `${base}/namespaces/${namespace}/${resource}` : `${base}/${resource}`;
}

/** Comma-separated words, spaces allowed: "get, list" → ['get', 'list']. */
export function words(text: string): string[] {
  return text.split(',').map((w) => w.trim()).filter(Boolean);
}

/** The request trace (`kube.audit`) since the scenario noted "trace mark". */
export async function traceSinceMark(world: KubespecWorld): Promise<RequestTraceEntry[]> {
  const kube = world.kube();
  assert.ok(kube.traces, 'this target declares kube.audit but offers no traces()');
  const mark = world.recall<number>('trace mark');
  return (await kube.traces()).filter((t) => t.id > mark);
}
