import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, pod, deployment } from './testing/harness.ts';
import { AdmissionDenied, type MutatingPlugin, type ValidatingPlugin } from './pipeline.ts';
import { parseStored } from './storage/codec.ts';

const PODS = '/api/v1/namespaces/default/pods';

test('a write passes authentication, authorization, mutating admission, schema validation, validating admission and storage, in that order', async () => {
  const seen: string[] = [];
  const addLabel: MutatingPlugin = { name: 'AddLabel', async admit(a) { seen.push(`mutate ${a.operation}`); a.object.metadata.labels = { ...(a.object.metadata.labels ?? {}), mutated: 'yes' }; } };
  const check: ValidatingPlugin = { name: 'Check', async validate(a) { seen.push(`validate ${a.object.metadata.labels.mutated}`); } };
  const h = await harness({ mutating: [addLabel], validating: [check] });
  const r = await h.call('POST', PODS, pod('a'));
  assert.equal(r.status, 201);
  assert.equal(r.json.metadata.labels.mutated, 'yes');
  assert.deepEqual(seen, ['mutate CREATE', 'validate yes']);
  const trace = h.server.traces.at(-1)!;
  assert.deepEqual(trace.stages.map((s) => `${s.stage}:${s.outcome}`), [
    'authentication:passed', 'authorization:passed', 'mutating-admission:passed', 'schema-validation:passed', 'validating-admission:passed', 'storage:passed',
  ]);
  assert.equal(trace.user, 'system:admin');
  assert.equal(trace.code, 201);
});

test('a validating plugin that denies stops the request before storage with its Status', async () => {
  const deny: ValidatingPlugin = { name: 'Deny', async validate() { throw new AdmissionDenied('pods "a" is forbidden: no', 403, 'Forbidden', 'Deny'); } };
  const h = await harness({ validating: [deny] });
  const before = h.backend.currentRevision();
  const r = await h.call('POST', PODS, pod('a'));
  assert.equal(r.status, 403);
  assert.equal(r.json.message, 'pods "a" is forbidden: no');
  assert.equal(h.backend.currentRevision(), before);
  assert.deepEqual(h.server.traces.at(-1)!.stages.at(-1), { stage: 'validating-admission', outcome: 'rejected', detail: 'Deny' });
});

test('an invalid object is refused by schema validation after mutating admission and before any validating plugin sees it', async () => {
  const seen: string[] = [];
  const mutate: MutatingPlugin = { name: 'Mutate', async admit(a) { seen.push(`mutate ${a.object.metadata.name}`); } };
  const check: ValidatingPlugin = { name: 'Check', async validate(a) { seen.push(`validate ${a.object.metadata.name}`); } };
  const h = await harness({ mutating: [mutate], validating: [check] });
  const r = await h.call('POST', PODS, pod('Bad_Name'));
  assert.equal(r.status, 422);
  assert.equal(r.json.reason, 'Invalid');
  assert.deepEqual(seen, ['mutate Bad_Name']);
  assert.deepEqual(h.server.traces.at(-1)!.stages.map((s) => `${s.stage}:${s.outcome}`), [
    'authentication:passed', 'authorization:passed', 'mutating-admission:passed', 'schema-validation:rejected',
  ]);
});

test('creating in a namespace that does not exist is 404 and generateName gets a 5-character suffix', async () => {
  const h = await harness();
  const r = await h.call('POST', '/api/v1/namespaces/ghost/pods', pod('a'));
  assert.equal(r.status, 404);
  assert.equal(r.json.message, 'namespaces "ghost" not found');
  const g = await h.call('POST', PODS, { ...pod(''), metadata: { generateName: 'web-' } });
  assert.match(g.json.metadata.name, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
});

test('a generated name that is taken is drawn again, up to 8 names, then AlreadyExists says the server could not find one', async () => {
  // Upstream's createWithGenerateNameRetry (registry/generic/registry/store.go) and NewGenerateNameConflict.
  const draws: number[] = [];
  let uids = 0;
  const h = await harness({ random: () => draws.shift() ?? 0, uid: () => `00000000-0000-4000-8000-${String(++uids).padStart(12, '0')}` });
  assert.equal((await h.call('POST', PODS, pod('web-bbbbb'))).status, 201);
  draws.push(0, 0, 0, 0, 0, 1 / 27, 1 / 27, 1 / 27, 1 / 27, 1 / 27);
  const second = await h.call('POST', PODS, { ...pod(''), metadata: { generateName: 'web-' } });
  assert.equal(second.status, 201, JSON.stringify(second.json));
  assert.equal(second.json.metadata.name, 'web-ccccc');
  const stuck = await h.call('POST', PODS, { ...pod(''), metadata: { generateName: 'web-' } });
  assert.equal(stuck.status, 409);
  assert.equal(stuck.json.reason, 'AlreadyExists');
  assert.equal(stuck.json.message, 'pods "web-bbbbb" already exists, the server was not able to generate a unique name for the object');
  assert.deepEqual(stuck.json.details, { name: 'web-bbbbb', kind: 'pods', retryAfterSeconds: 1 });
  const named = await h.call('POST', PODS, pod('web-bbbbb'));
  assert.equal(named.json.message, 'pods "web-bbbbb" already exists', 'a name the client chose keeps the plain message');
});

test('create stamps uid, creationTimestamp from the clock and resourceVersion from the store revision', async () => {
  const h = await harness();
  const r = await h.call('POST', PODS, pod('a'));
  assert.equal(r.json.metadata.creationTimestamp, '2024-01-01T00:00:00Z');
  assert.equal(r.json.metadata.resourceVersion, String(h.backend.currentRevision()));
  assert.match(r.json.metadata.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const kv = await h.backend.get('/registry/pods/default/a');
  assert.equal(parseStored(kv!.value).metadata.resourceVersion, undefined);
});

test('generation moves only when a deployment\'s spec changes, not on label or status writes', async () => {
  const h = await harness();
  const D = '/apis/apps/v1/namespaces/default/deployments';
  await h.call('POST', D, deployment('web'));
  const merge = { 'content-type': 'application/merge-patch+json' };
  const labelled = await h.call('PATCH', `${D}/web`, { metadata: { labels: { a: 'b' } } }, merge);
  assert.equal(labelled.json.metadata.generation, 1);
  const status = await h.call('PATCH', `${D}/web/status`, { status: { replicas: 1 } }, merge);
  assert.equal(status.json.metadata.generation, 1);
  assert.equal(status.json.status.replicas, 1);
  const scaled = await h.call('PATCH', `${D}/web`, { spec: { replicas: 3 }, status: { replicas: 99 } }, merge);
  assert.equal(scaled.json.metadata.generation, 2);
  assert.equal(scaled.json.status.replicas, 1, 'status is only written through /status');
});

test('concurrent merge patches are never lost: each retries on a compare-and-swap failure', async () => {
  const h = await harness();
  await h.call('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: {} });
  const merge = { 'content-type': 'application/merge-patch+json' };
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => h.call('PATCH', '/api/v1/namespaces/default/configmaps/c', { data: { [`k${i}`]: 'v' } }, merge)));
  assert.ok(results.every((r) => r.status === 200));
  const final = await h.call('GET', '/api/v1/namespaces/default/configmaps/c');
  assert.equal(Object.keys(final.json.data).length, 20);
});

test('two updates from the same resourceVersion: the first wins, the second is a Conflict', async () => {
  const h = await harness();
  const created = await h.call('POST', PODS, pod('a'));
  const a = structuredClone(created.json);
  a.metadata.labels = { v: 'a' };
  const b = structuredClone(created.json);
  b.metadata.labels = { v: 'b' };
  const [ra, rb] = await Promise.all([h.call('PUT', `${PODS}/a`, a), h.call('PUT', `${PODS}/a`, b)]);
  assert.deepEqual([ra.status, rb.status].sort(), [200, 409]);
});

test('binding sets spec.nodeName once, and a second binding is 409', async () => {
  const h = await harness();
  await h.call('POST', PODS, pod('a'));
  const bind = (node: string) => h.call('POST', `${PODS}/a/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'a' }, target: { kind: 'Node', name: node } });
  assert.equal((await bind('n1')).status, 201);
  const p = await h.call('GET', `${PODS}/a`);
  assert.equal(p.json.spec.nodeName, 'n1');
  assert.equal(p.json.status.conditions[0].type, 'PodScheduled');
  const again = await bind('n2');
  assert.equal(again.status, 409);
  assert.match(again.json.message, /is already assigned to node "n1"/);
});

test('a pod on a node is deleted gracefully; the kubelet\'s delete with grace 0 removes it', async () => {
  const h = await harness();
  await h.call('POST', PODS, { ...pod('a'), spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] } });
  const marked = await h.call('DELETE', `${PODS}/a`);
  assert.equal(marked.status, 200);
  assert.equal(marked.json.metadata.deletionGracePeriodSeconds, 30);
  assert.equal((await h.call('GET', `${PODS}/a`)).status, 200);
  await h.call('DELETE', `${PODS}/a`, { gracePeriodSeconds: 0 });
  assert.equal((await h.call('GET', `${PODS}/a`)).status, 404);
});

test('an object with a finalizer stays until the finalizer is removed', async () => {
  const h = await harness();
  const CM = '/api/v1/namespaces/default/configmaps';
  await h.call('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', finalizers: ['example.com/hold'] } });
  const del = await h.call('DELETE', `${CM}/c`);
  assert.ok(del.json.metadata.deletionTimestamp);
  await h.call('PATCH', `${CM}/c`, [{ op: 'remove', path: '/metadata/finalizers' }], { 'content-type': 'application/json-patch+json' });
  assert.equal((await h.call('GET', `${CM}/c`)).status, 404);
});

test('deleting a namespace marks it Terminating; it goes once the finalize subresource removes "kubernetes"', async () => {
  const h = await harness();
  const created = await h.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 't' } });
  assert.deepEqual(created.json.spec.finalizers, ['kubernetes']);
  await h.call('POST', '/api/v1/namespaces/t/pods', pod('a'));
  const r = await h.call('DELETE', '/api/v1/namespaces/t');
  assert.equal(r.status, 200);
  assert.equal(r.json.status.phase, 'Terminating');
  assert.ok(r.json.metadata.deletionTimestamp);
  // The API server leaves the content to the namespace controller.
  assert.equal((await h.call('GET', '/api/v1/namespaces/t/pods/a')).status, 200);
  // A plain update cannot drop the finalizer; the finalize subresource can, and that deletes the namespace.
  const ns = (await h.call('GET', '/api/v1/namespaces/t')).json;
  await h.call('PUT', '/api/v1/namespaces/t', { ...ns, spec: { finalizers: [] } });
  assert.deepEqual((await h.call('GET', '/api/v1/namespaces/t')).json.spec.finalizers, ['kubernetes']);
  const fin = await h.call('PUT', '/api/v1/namespaces/t/finalize', { ...ns, spec: { finalizers: [] } });
  assert.equal(fin.status, 200, JSON.stringify(fin.json));
  assert.equal((await h.call('GET', '/api/v1/namespaces/t')).status, 404);
});

test('services get a cluster IP from 10.96.0.0/12 and node ports from 30000-32767', async () => {
  const h = await harness();
  const S = '/api/v1/namespaces/default/services';
  const svc = (name: string, type = 'ClusterIP') => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type, selector: { app: name }, ports: [{ port: 80 }] } });
  const [a, b] = await Promise.all([h.call('POST', S, svc('a')), h.call('POST', S, svc('b', 'NodePort'))]);
  assert.notEqual(a.json.spec.clusterIP, b.json.spec.clusterIP);
  assert.match(a.json.spec.clusterIP, /^10\.96\.0\.\d+$/);
  assert.equal(b.json.spec.ports[0].nodePort, 30000);
  assert.equal(b.json.spec.ports[0].targetPort, 80);
});

test('a self subject access review answers with the configured authorizer\'s decision for the caller', async () => {
  const h = await harness({ authorizer: { async authorize(a) { return a.verb === 'get' ? { allowed: true, reason: 'ok' } : { allowed: a.resource === 'selfsubjectaccessreviews', reason: '' }; } } });
  const review = (verb: string) => h.call('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb, resource: 'pods', namespace: 'default' } } });
  assert.equal((await review('get')).json.status.allowed, true);
  assert.equal((await review('delete')).json.status.allowed, false);
});

test('eviction is refused with 429 while the pod\'s disruption budget allows no disruption', async () => {
  const h = await harness();
  await h.call('POST', PODS, { ...pod('a', { labels: { app: 'x' } }), spec: { nodeName: 'n', containers: [{ name: 'c', image: 'x' }] } });
  await h.call('PATCH', `${PODS}/a/status`, { status: { phase: 'Running' } }, { 'content-type': 'application/merge-patch+json' });
  await h.call('POST', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'x' } } } });
  const evict = () => h.call('POST', `${PODS}/a/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'a' } });
  const refused = await evict();
  assert.equal(refused.status, 429);
  assert.equal(refused.json.details.causes[0].reason, 'DisruptionBudget');
  await h.call('PATCH', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/b/status', { status: { observedGeneration: 1, disruptionsAllowed: 1 } }, { 'content-type': 'application/merge-patch+json' });
  assert.equal((await evict()).status, 201);
  const pdb = await h.call('GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/b');
  assert.equal(pdb.json.status.disruptionsAllowed, 0);
});

test('a Running pod that is not Ready may be evicted while its budget is met, spending no disruption (IfHealthyBudget)', async () => {
  const h = await harness();
  await h.call('POST', PODS, { ...pod('a', { labels: { app: 'x' } }), spec: { nodeName: 'n', containers: [{ name: 'c', image: 'x' }] } });
  await h.call('PATCH', `${PODS}/a/status`, { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] } }, { 'content-type': 'application/merge-patch+json' });
  await h.call('POST', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b' }, spec: { minAvailable: 1, selector: {} } });
  await h.call('PATCH', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/b/status', { status: { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 } }, { 'content-type': 'application/merge-patch+json' });
  assert.equal((await h.call('POST', `${PODS}/a/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'a' } })).status, 201);
  assert.equal((await h.call('GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/b')).json.status.disruptionsAllowed, 0);
});

test('in policy/v1 an empty budget selector selects every pod of the namespace', async () => {
  const h = await harness();
  await h.call('POST', PODS, { ...pod('a', { labels: { app: 'x' } }), spec: { nodeName: 'n', containers: [{ name: 'c', image: 'x' }] } });
  await h.call('PATCH', `${PODS}/a/status`, { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } }, { 'content-type': 'application/merge-patch+json' });
  await h.call('POST', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b' }, spec: { minAvailable: 1, selector: {} } });
  assert.equal((await h.call('POST', `${PODS}/a/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'a' } })).status, 429);
});

test('a pod update may change a container image but no other spec field, as upstream\'s ValidatePodUpdate', async () => {
  const h = await harness();
  await h.call('POST', PODS, pod('a'));
  const smp = { 'content-type': 'application/strategic-merge-patch+json' };
  const image = await h.call('PATCH', `${PODS}/a`, { spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } }, smp);
  assert.equal(image.status, 200);
  const node = await h.call('PATCH', `${PODS}/a`, { spec: { nodeName: 'n1' } }, smp);
  assert.equal(node.status, 422);
  assert.match(node.json.message, /^Pod "a" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/);
});

test('impersonation headers make the request act as another user when the caller may impersonate them', async () => {
  const calls: string[] = [];
  const h = await harness({
    authorizer: {
      async authorize(a) {
        calls.push(`${a.user.name} ${a.verb} ${a.resource}/${a.name}`);
        if (a.verb === 'impersonate') return { allowed: a.name !== 'root', reason: '' };
        return { allowed: a.user.name === 'bob', reason: '' };
      },
    },
  });
  const asBob = await h.call('GET', PODS, undefined, { 'impersonate-user': 'bob', 'impersonate-group': 'dev' });
  assert.equal(asBob.status, 200);
  assert.equal(h.server.traces.at(-1)!.user, 'bob');
  assert.deepEqual(calls.slice(0, 3), ['system:admin impersonate users/bob', 'system:admin impersonate groups/dev', 'bob list pods/']);
  const root = await h.call('GET', PODS, undefined, { 'impersonate-user': 'root' });
  assert.equal(root.status, 403);
  assert.equal(root.json.message, 'users "root" is forbidden: User "system:admin" cannot impersonate resource "users" in API group "" at the cluster scope');
});

test('a user an authenticator recognises is also in system:authenticated, as upstream\'s authenticated-group adder makes it', async () => {
  const seen: string[][] = [];
  const h = await harness({
    authenticators: [{ name: 'fixed', async authenticate() { return { kind: 'authenticated', method: 'fixed', user: { name: 'bob', groups: ['ops'] } }; } }],
    authorizer: { async authorize(a) { seen.push(a.user.groups); return { allowed: true, reason: '' }; } },
  });
  const r = await h.call('GET', '/api/v1/namespaces/default/configmaps');
  assert.equal(r.status, 200);
  assert.deepEqual(seen, [['ops', 'system:authenticated']]);
});

test('in process, the stored objects an answer carries are shared and frozen (a get, a list, a write): a caller copies before it changes one', async () => {
  const h = await harness();
  const handle = async (method: string, url: string, body?: unknown) => {
    const r = await h.server.handle({ method, url, headers: { 'content-type': 'application/json' }, body: Buffer.from(body === undefined ? '' : JSON.stringify(body)) });
    assert.equal(r.answer.kind, 'reply');
    return (r.answer as { body: any }).body;
  };
  const created = await handle('POST', PODS, pod('own'));
  const got = await handle('GET', `${PODS}/own`);
  const listed = await handle('GET', PODS);
  for (const obj of [created, got, listed.items[0]]) {
    assert.ok(Object.isFrozen(obj) && Object.isFrozen(obj.metadata) && Object.isFrozen(obj.spec));
    assert.throws(() => {
      obj.metadata.name = 'changed';
    }, TypeError);
  }
  assert.equal(got.spec, listed.items[0].spec, 'one decode of the stored text, shared');
  assert.equal((await handle('GET', `${PODS}/own`)).metadata.name, 'own');
});
