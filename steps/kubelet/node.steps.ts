/** Steps about a kubelet as an API client: its Node, its Lease, and its requests in the trace. */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';
import { eventually, getPod, seconds } from './support.ts';

async function get(world: KubespecWorld, path: string): Promise<any | undefined> {
  const res = await world.kube().request({ method: 'GET', path });
  return res.status === 200 ? res.json : undefined;
}

function leasePath(ref: string): string {
  const [ns, name] = ref.split('/');
  return `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/${name}`;
}

Then('within {int} seconds node {string} exists with condition {string} status {string}', async function (this: KubespecWorld, s: number, node: string, type: string, status: string) {
  await eventually(this, `node ${node} ${type}=${status}`, async () => (await get(this, `/api/v1/nodes/${node}`))?.status?.conditions?.some((c: any) => c.type === type && c.status === status) ?? false, seconds(s));
});

Then('within {int} seconds lease {string} has holderIdentity {string}', async function (this: KubespecWorld, s: number, ref: string, holder: string) {
  await eventually(this, `lease ${ref} held by ${holder}`, async () => (await get(this, leasePath(ref)))?.spec?.holderIdentity === holder, seconds(s));
});

Then('node {string} reports a kubeletVersion in status.nodeInfo', async function (this: KubespecWorld, node: string) {
  const got = await get(this, `/api/v1/nodes/${node}`);
  assert.match(String(got?.status?.nodeInfo?.kubeletVersion ?? ''), /^v\d+\.\d+/);
});

Then('lease {string} was renewed within the last {int} seconds', async function (this: KubespecWorld, ref: string, s: number) {
  const lease = await get(this, leasePath(ref));
  const now = this.session.clock ? this.session.clock.now_ms() : Date.now();
  const age_ms = now - Date.parse(lease?.spec?.renewTime);
  assert.ok(age_ms >= 0 && age_ms <= s * 1000, `renewTime ${lease?.spec?.renewTime} is ${age_ms} ms old`);
});

Then('the audit trail has a watch request from user {string} on {string} with fieldSelector {string}', async function (this: KubespecWorld, user: string, path: string, selector: string) {
  const kube = this.kube();
  assert.ok(kube.traces, 'this target declares kube.audit but offers no traces()');
  await eventually(this, `a watch by ${user}`, async () => (await kube.traces!()).some((t) => {
    const q = new URLSearchParams(t.query ?? '');
    return t.user === user && t.path === path && q.get('watch') === 'true' && q.get('fieldSelector') === selector;
  }), seconds(5));
});

Then('the audit trail has a {string} or {string} of the status of pod {string} by user {string}', async function (this: KubespecWorld, a: string, b: string, pod: string, user: string) {
  const path = `/api/v1/namespaces/${this.kube().namespace}/pods/${pod}/status`;
  const traces = await this.kube().traces!();
  assert.ok(traces.some((t) => t.user === user && t.path === path && [a, b].includes(t.method) && t.code === 200), `no ${a}/${b} of ${path} by ${user}`);
  assert.ok(await getPod(this, pod));
});

Then('{string} may not write the status of pod {string}', async function (this: KubespecWorld, user: string, pod: string) {
  const path = `/api/v1/namespaces/${this.kube().namespace}/pods/${pod}/status`;
  const res = await this.kube().request({ method: 'PATCH', path, headers: { 'content-type': 'application/merge-patch+json' }, body: { status: { phase: 'Failed' } }, as: { user, groups: ['system:nodes', 'system:authenticated'] } });
  this.note('node write', res);
  assert.equal(res.status, 403, res.text);
});

Then('the refusal says {string}', function (this: KubespecWorld, text: string) {
  const res = this.recall<any>('node write');
  assert.ok(String(res.json?.message).includes(text), res.text);
});

Then('{string} may write the status of pod {string}', async function (this: KubespecWorld, user: string, pod: string) {
  const path = `/api/v1/namespaces/${this.kube().namespace}/pods/${pod}/status`;
  const res = await this.kube().request({ method: 'PATCH', path, headers: { 'content-type': 'application/merge-patch+json' }, body: { status: { message: 'written by the node' } }, as: { user, groups: ['system:nodes', 'system:authenticated'] } });
  expectSuccess(res, `${user} patching ${path}`);
});

Then('{string} may not update node {string}', async function (this: KubespecWorld, user: string, node: string) {
  const res = await this.kube().request({ method: 'PATCH', path: `/api/v1/nodes/${node}/status`, headers: { 'content-type': 'application/merge-patch+json' }, body: { status: { phase: 'Running' } }, as: { user, groups: ['system:nodes', 'system:authenticated'] } });
  this.note('node write', res);
  assert.equal(res.status, 403, res.text);
});

Then('{string} may not update lease {string}', async function (this: KubespecWorld, user: string, ref: string) {
  const lease = await get(this, leasePath(ref));
  assert.ok(lease, `no lease ${ref}`);
  const res = await this.kube().request({ method: 'PUT', path: leasePath(ref), body: lease, as: { user, groups: ['system:nodes', 'system:authenticated'] } });
  this.note('node write', res);
  assert.equal(res.status, 403, res.text);
});
