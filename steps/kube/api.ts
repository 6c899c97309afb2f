/** Small helpers the Kubernetes API steps share: paths and response checks that explain themselves. */
import assert from 'node:assert/strict';
import type { KubeFacet, KubeResponse } from '../../adapters/contract.ts';

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
