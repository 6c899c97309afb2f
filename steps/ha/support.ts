/** Helpers the HA steps share: component names as the features say them, and Lease reads. */
import assert from 'node:assert/strict';
import type { KubeFacet } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';

/** "controller manager(s)" → kube-controller-manager, and so on. */
export function componentOf(words: string): string {
  if (/^controller managers?$/.test(words)) return 'kube-controller-manager';
  if (/^schedulers?$/.test(words)) return 'kube-scheduler';
  if (/^cloud-controller-manager instances?$/.test(words) || /^instances?$/.test(words)) return 'cloud-controller-manager';
  throw new Error(`no control-plane component is called "${words}"`);
}

/** The wording the features use for a component; a regexp group. */
export const COMPONENT = '(controller managers?|schedulers?|cloud-controller-manager instances?)';

/** "kube-system/kube-scheduler" → the Lease's path. */
export function leasePath(ref: string): string {
  const [namespace, name] = ref.split('/');
  assert.ok(namespace && name, `a Lease is named namespace/name, got "${ref}"`);
  return `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${name}`;
}

export async function getLease(kube: KubeFacet, ref: string): Promise<any> {
  const res = await kube.request({ method: 'GET', path: leasePath(ref) });
  assert.equal(res.status, 200, `GET lease ${ref}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.json;
}

/** The Lease's component, from its name in kube-system (upstream names each Lease after its component). */
export function componentOfLease(ref: string): string {
  return ref.split('/')[1]!;
}

/** Which of the named instances the Lease's holderIdentity is (identities are hostname_uuid upstream). */
export async function holderName(world: KubespecWorld, ref: string, names: readonly string[]): Promise<string | undefined> {
  const holder = (await getLease(world.kube(), ref)).spec?.holderIdentity ?? '';
  for (const name of names) {
    const p = await world.ha().process(componentOfLease(ref), name);
    if (p.identity !== '' && p.identity === holder) return name;
  }
  return undefined;
}

export function ms(microTime: string): number {
  const t = Date.parse(microTime);
  assert.ok(Number.isFinite(t), `not a MicroTime: "${microTime}"`);
  return t;
}
