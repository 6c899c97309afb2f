import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdmissionDenied, type AdmissionAttributes } from '../../pipeline.ts';
import { attrsFor, podAttrs } from '../testutil.ts';
import { podSecurityAdmission } from './plugin.ts';

const PSA = 'pod-security.kubernetes.io/';

function harness(labels: Record<string, string>) {
  const plugin = podSecurityAdmission({ getNamespace: async (name) => (name === 'team' ? { metadata: { labels } } : undefined) });
  const warnings: string[] = [];
  const annotations: Record<string, string> = {};
  const run = (attrs: AdmissionAttributes) => plugin.validate({ ...attrs, namespace: 'team', warn: (m) => void warnings.push(m), annotate: (k, v) => void (annotations[k] = v) });
  return { run, warnings, annotations };
}

const privilegedPod = () => ({
  metadata: { name: 'x' },
  spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }], volumes: [{ name: 'root', hostPath: { path: '/' } }] },
});

test('enforce=baseline refuses a privileged hostPath pod with 403 and upstream\'s message; the enforce policy is annotated', async () => {
  const h = harness({ [`${PSA}enforce`]: 'baseline' });
  await assert.rejects(h.run(podAttrs(privilegedPod())), (e: unknown) => {
    assert.ok(e instanceof AdmissionDenied);
    assert.equal(e.code, 403);
    assert.equal(e.reason, 'Forbidden');
    assert.equal(e.message, 'pods "x" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true), hostPath volumes (volume "root")');
    return true;
  });
  assert.equal(h.annotations[`${PSA}enforce-policy`], 'baseline:latest');
  assert.deepEqual(h.warnings, [], 'no warnings on a request that is refused');
});

test('warn=restricted lets the pod in with one Warning; audit=baseline annotates the request', async () => {
  const h = harness({ [`${PSA}warn`]: 'restricted', [`${PSA}audit`]: 'baseline' });
  await h.run(podAttrs(privilegedPod()));
  assert.equal(h.warnings.length, 1);
  assert.match(h.warnings[0]!, /^would violate PodSecurity "restricted:latest": privileged \(container "c" must not set securityContext.privileged=true\), allowPrivilegeEscalation != false/);
  assert.equal(h.annotations[`${PSA}audit-violations`], 'would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true), hostPath volumes (volume "root")');
});

test('a namespace without labels, status updates and unchanged updates are left alone', async () => {
  const none = harness({});
  await none.run(podAttrs(privilegedPod()));
  assert.deepEqual(none.warnings, []);
  assert.equal(none.annotations[`${PSA}audit-violations`], undefined);
  const h = harness({ [`${PSA}enforce`]: 'restricted' });
  await h.run(podAttrs(privilegedPod(), { subresource: 'status', operation: 'UPDATE', oldObject: privilegedPod() }));
  await h.run(podAttrs(privilegedPod(), { operation: 'UPDATE', oldObject: privilegedPod() }));
  const newImage = privilegedPod();
  newImage.spec.containers[0]!.image = 'busybox:2';
  await assert.rejects(h.run(podAttrs(newImage, { operation: 'UPDATE', oldObject: privilegedPod() })), AdmissionDenied);
});

test('a Deployment\'s pod template is warned about and audited, never refused (upstream enforces on pods only)', async () => {
  const h = harness({ [`${PSA}enforce`]: 'restricted', [`${PSA}warn`]: 'restricted', [`${PSA}audit`]: 'restricted' });
  const deployment = { metadata: { name: 'd' }, spec: { template: privilegedPod() } };
  await h.run(attrsFor('deployments', 'Deployment', 'apps', deployment));
  assert.equal(h.warnings.length, 1);
  assert.match(h.warnings[0]!, /^would violate PodSecurity "restricted:latest": privileged/);
  assert.match(h.annotations[`${PSA}audit-violations`]!, /^would violate PodSecurity "restricted:latest"/);
  const cronJob = { metadata: { name: 'cj' }, spec: { jobTemplate: { spec: { template: privilegedPod() } } } };
  await h.run(attrsFor('cronjobs', 'CronJob', 'batch', cronJob));
  assert.equal(h.warnings.length, 2);
});

test('unparseable labels enforce restricted (fail closed) and record the parse error', async () => {
  const h = harness({ [`${PSA}enforce`]: 'strictest' });
  await assert.rejects(h.run(podAttrs(privilegedPod())), /violates PodSecurity "restricted:latest"/);
  assert.match(h.annotations[`${PSA}error`]!, /Failed to parse policy: .*strictest/);
});

test('a namespace where every mode is privileged is not evaluated and nothing is annotated', async () => {
  const h = harness({ [`${PSA}enforce`]: 'privileged' });
  await h.run(podAttrs(privilegedPod()));
  assert.deepEqual(h.annotations, {});
  assert.deepEqual(h.warnings, []);
});

const nsAttrs = (labels: Record<string, string>, oldLabels?: Record<string, string>): AdmissionAttributes => ({
  ...attrsFor('namespaces', 'Namespace', '', { metadata: { name: 'team', labels } }, { name: 'team', namespace: '' }),
  ...(oldLabels ? { operation: 'UPDATE' as const, oldObject: { metadata: { name: 'team', labels: oldLabels } } } : {}),
});

test('a namespace whose Pod Security labels do not parse is refused 422 Invalid, naming each label', async () => {
  const plugin = podSecurityAdmission({ getNamespace: async () => undefined });
  await assert.rejects(plugin.validate(nsAttrs({ [`${PSA}enforce`]: 'strict', [`${PSA}warn-version`]: '1.30' })), (e: any) => {
    assert.equal(e.code, 422);
    assert.equal(e.reason, 'Invalid');
    assert.equal(e.message, `Namespace "team" is invalid: [metadata.labels[${PSA}enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[${PSA}warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"]`);
    return true;
  });
  await plugin.validate(nsAttrs({ [`${PSA}enforce`]: 'restricted', [`${PSA}enforce-version`]: 'v1.30' }));
  // An update that keeps the same bad label (set before the plugin ran) is let through, as upstream.
  await plugin.validate(nsAttrs({ [`${PSA}enforce`]: 'strict', other: 'x' }, { [`${PSA}enforce`]: 'strict' }));
});

test('making enforce stricter warns which existing pods the new level would refuse; relaxing it does not', async () => {
  const pods = [privilegedPod(), { ...privilegedPod(), metadata: { name: 'a' } }, { metadata: { name: 'ok' }, spec: { containers: [{ name: 'c' }] } }];
  const warnings: string[] = [];
  const plugin = podSecurityAdmission({ getNamespace: async () => undefined, listPods: async () => pods });
  const run = (labels: Record<string, string>, old: Record<string, string>) => plugin.validate({ ...nsAttrs(labels, old), warn: (m) => void warnings.push(m) });
  await run({ [`${PSA}enforce`]: 'baseline' }, {});
  assert.deepEqual(warnings, ['existing pods in namespace "team" violate the new PodSecurity enforce level "baseline:latest"', 'a (and 1 other pod): privileged, hostPath volumes']);
  warnings.length = 0;
  await run({ [`${PSA}enforce`]: 'baseline' }, { [`${PSA}enforce`]: 'restricted' });
  assert.deepEqual(warnings, []);
});
