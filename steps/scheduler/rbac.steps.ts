/**
 * Steps about a control-plane component whose RBAC is too strict (features/practices/
 * pitfalls.feature, PITFALL-RBAC-TOO-STRICT): the scheduler's ClusterRole loses one permission
 * through the API (restored after the scenario), and the request trace shows what its requests
 * were answered.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import { container, createPod } from '../kubelet/support.ts';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess, traceSinceMark } from '../kube/api.ts';

const clusterRolePath = (name: string) => `/apis/rbac.authorization.k8s.io/v1/clusterroles/${encodeURIComponent(name)}`;

/**
 * The user's permission goes from its bootstrap ClusterRole of the same name (system:kube-scheduler
 * is bound to the user system:kube-scheduler: plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go).
 * The edit lasts until the API server's next start reconciles the bootstrap roles.
 */
Given('the scheduler\'s user {string} lost its permission to create {string}', async function (this: KubespecWorld, user: string, resource: string) {
  const kube = this.kube();
  const role = expectSuccess(await kube.request({ method: 'GET', path: clusterRolePath(user) }), `get ClusterRole ${user}`);
  const original = structuredClone(role.rules);
  role.rules = role.rules
    .map((r: any) => (r.verbs.includes('create') && (r.resources ?? []).includes(resource) ? { ...r, resources: r.resources.filter((x: string) => x !== resource) } : r))
    .filter((r: any) => (r.resources ?? r.nonResourceURLs ?? []).length > 0);
  expectSuccess(await kube.request({ method: 'PUT', path: clusterRolePath(user), body: role }), `update ClusterRole ${user}`);
  this.onCleanup(async () => {
    const now = expectSuccess(await kube.request({ method: 'GET', path: clusterRolePath(user) }), `get ClusterRole ${user}`);
    return kube.request({ method: 'PUT', path: clusterRolePath(user), body: { ...now, rules: original } });
  });
  this.note('trace mark', Math.max(0, ...((await kube.traces?.()) ?? []).map((t) => t.id)));
});

When('I create pod {string} with one container {string} running {string}, left to the scheduler', async function (this: KubespecWorld, pod: string, name: string, command: string) {
  await createPod(this, pod, { containers: [container(name, command)] }, { node: null });
});

Then('pod {string} still has an empty spec.nodeName after {int} seconds', async function (this: KubespecWorld, pod: string, seconds: number) {
  if (this.session.clock) await this.session.clock.advance(seconds * 1000);
  else await new Promise((r) => setTimeout(r, seconds * 1000));
  const got = expectSuccess(await this.kube().request({ method: 'GET', path: `/api/v1/namespaces/${this.kube().namespace}/pods/${encodeURIComponent(pod)}` }), `get pod ${pod}`);
  assert.equal(got.spec.nodeName ?? '', '', `pod ${pod} was bound to ${got.spec.nodeName}`);
  assert.equal(got.status?.phase, 'Pending');
});

Then('the scheduler\'s binding attempts were answered {int} Forbidden', async function (this: KubespecWorld, code: number) {
  const binding = /^\/api\/v1\/namespaces\/[^/]+\/pods\/[^/]+\/binding$|^\/api\/v1\/namespaces\/[^/]+\/bindings$/;
  const attempts = (await traceSinceMark(this)).filter((t) => t.user === 'system:kube-scheduler' && t.method === 'POST' && binding.test(t.path) && t.path.includes(`/namespaces/${this.kube().namespace}/`));
  assert.ok(attempts.length > 0, 'the scheduler made no binding request');
  assert.deepEqual([...new Set(attempts.map((t) => t.code))], [code], `binding attempts: ${attempts.map((t) => `${t.path} ${t.code}`).join('; ')}`);
});
