/**
 * What the flow steps share (features/flow/): the web Deployment manifest every scenario applies,
 * the pods it makes, and the request trace read by who made each request.
 */
import assert from 'node:assert/strict';
import { parse, stringify } from 'yaml';
import type { RequestTraceEntry } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';
import { deployPath, podsPath, rsPath } from '../controllers/support.ts';

/** The manifest of the feature's prose: 3 replicas of busybox sleeping, in the scenario's namespace. */
export const WEB_MANIFEST = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: busybox, command: ["sleep", "3600"]}]
`;

export function webDeployment(): any {
  return parse(WEB_MANIFEST);
}

/** The manifest with one more field, e.g. "spec.replicaz: 3" (a value parsed as YAML). */
export function webManifestPlus(field: string): string {
  const colon = field.indexOf(':');
  const path = field.slice(0, colon).trim().split('.');
  const body = webDeployment();
  let at = body;
  for (const p of path.slice(0, -1)) at = at[p] ??= {};
  at[path.at(-1)!] = parse(field.slice(colon + 1));
  return stringify(body);
}

/** The pods a "there are exactly N pods" step settled on, for the "those pods" steps after it. */
export const THOSE_PODS = 'flow pods';

export function thosePods(world: KubespecWorld): any[] {
  return world.recall<any[]>(THOSE_PODS);
}

export async function podsLabelled(world: KubespecWorld, selector: string): Promise<any[]> {
  const res = await world.kube().request({ method: 'GET', path: `${podsPath(world.kube())}?labelSelector=${encodeURIComponent(selector)}` });
  return expectSuccess(res, `list pods ${selector}`).items ?? [];
}

/** The ReplicaSets Deployment `name` controls (ownerReference with controller true, to its uid). */
export async function replicaSetsOf(world: KubespecWorld, name: string): Promise<any[]> {
  const kube = world.kube();
  const res = await kube.request({ method: 'GET', path: deployPath(kube, name) });
  if (res.status !== 200) return [];
  const uid = res.json.metadata.uid;
  const sets = expectSuccess(await kube.request({ method: 'GET', path: rsPath(kube) }), 'list ReplicaSets').items ?? [];
  return sets.filter((rs: any) => controllerUid(rs) === uid);
}

export function controllerUid(object: any): string | undefined {
  return (object?.metadata?.ownerReferences ?? []).find((r: any) => r.controller === true)?.uid;
}

export function podNames(pods: any[]): string {
  return pods.map((p) => `${p.metadata.name}@${p.spec?.nodeName || '-'}:${p.status?.phase}`).join(', ');
}

export const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The scenario's own requests: those made as its default identity (kubectl uses the same one). */
export function byClient(world: KubespecWorld, entries: RequestTraceEntry[]): RequestTraceEntry[] {
  const user = world.kube().identity?.user;
  assert.ok(user, 'this target does not say who its default identity is (KubeFacet.identity)');
  return entries.filter((t) => t.user === user);
}

export function shownTrace(entries: RequestTraceEntry[]): string {
  return entries.map((t) => `#${t.id} ${t.method} ${t.path}${t.query ? `?${t.query}` : ''} ${t.code} by ${t.user ?? '?'}`).join('\n  ');
}
