import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyDefaults, defaultsPlugin, imageTag } from './defaults.ts';
import { podAttrs } from './testutil.ts';

test('a pod gets restartPolicy Always, dnsPolicy ClusterFirst and the other PodSpec defaults', () => {
  const pod: any = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } };
  applyDefaults({ group: '', resource: 'pods' }, pod);
  assert.equal(pod.spec.restartPolicy, 'Always');
  assert.equal(pod.spec.dnsPolicy, 'ClusterFirst');
  assert.equal(pod.spec.terminationGracePeriodSeconds, 30);
  assert.equal(pod.spec.schedulerName, 'default-scheduler');
  assert.equal(pod.spec.enableServiceLinks, true);
  assert.deepEqual(pod.spec.securityContext, {});
  assert.deepEqual(pod.spec.containers[0], {
    name: 'c',
    image: 'nginx:1.25',
    imagePullPolicy: 'IfNotPresent',
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
  });
});

test('fields the user set are kept', () => {
  const pod: any = { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x', imagePullPolicy: 'Never' }] } };
  applyDefaults({ group: '', resource: 'pods' }, pod);
  assert.equal(pod.spec.restartPolicy, 'Never');
  assert.equal(pod.spec.containers[0].imagePullPolicy, 'Never');
});

test('imagePullPolicy is Always for :latest or no tag and IfNotPresent otherwise', () => {
  const cases: Array<[string, string]> = [
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.25', 'IfNotPresent'],
    ['localhost:5000/app', 'Always'],
    ['localhost:5000/app:v2', 'IfNotPresent'],
    ['nginx@sha256:abcd', 'IfNotPresent'],
  ];
  for (const [image, policy] of cases) {
    const pod: any = { spec: { containers: [{ name: 'c', image }] } };
    applyDefaults({ group: '', resource: 'pods' }, pod);
    assert.equal(pod.spec.containers[0].imagePullPolicy, policy, image);
  }
  assert.equal(imageTag('registry:5000/ns/app'), 'latest');
});

test('limits are copied to missing requests on a pod', () => {
  const pod: any = { spec: { containers: [{ name: 'c', image: 'x:1', resources: { limits: { cpu: '1' }, requests: { memory: '1Gi' } } }] } };
  applyDefaults({ group: '', resource: 'pods' }, pod);
  assert.deepEqual(pod.spec.containers[0].resources.requests, { memory: '1Gi', cpu: '1' });
});

test('a service gets sessionAffinity None, type ClusterIP, TCP ports and targetPort = port', () => {
  const svc: any = { spec: { ports: [{ port: 80 }, { port: 53, protocol: 'UDP', targetPort: 'dns' }] } };
  applyDefaults({ group: '', resource: 'services' }, svc);
  assert.equal(svc.spec.sessionAffinity, 'None');
  assert.equal(svc.spec.type, 'ClusterIP');
  assert.equal(svc.spec.internalTrafficPolicy, 'Cluster');
  assert.equal(svc.spec.externalTrafficPolicy, undefined);
  assert.deepEqual(svc.spec.ports, [
    { port: 80, protocol: 'TCP', targetPort: 80 },
    { port: 53, protocol: 'UDP', targetPort: 'dns' },
  ]);
});

test('a NodePort service also gets externalTrafficPolicy Cluster', () => {
  const svc: any = { spec: { type: 'NodePort', ports: [{ port: 80 }] } };
  applyDefaults({ group: '', resource: 'services' }, svc);
  assert.equal(svc.spec.externalTrafficPolicy, 'Cluster');
});

test('a deployment gets replicas 1, RollingUpdate 25%/25%, revisionHistoryLimit 10 and template defaults', () => {
  const d: any = { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
  applyDefaults({ group: 'apps', resource: 'deployments' }, d);
  assert.equal(d.spec.replicas, 1);
  assert.deepEqual(d.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  assert.equal(d.spec.revisionHistoryLimit, 10);
  assert.equal(d.spec.progressDeadlineSeconds, 600);
  assert.equal(d.spec.template.spec.restartPolicy, 'Always');
  assert.equal(d.spec.template.spec.containers[0].imagePullPolicy, 'Always');
  assert.equal(d.spec.template.spec.enableServiceLinks, undefined, 'a template is not a Pod');
});

test('a Recreate deployment gets no rollingUpdate block, and explicit replicas 0 are kept', () => {
  const d: any = { spec: { replicas: 0, strategy: { type: 'Recreate' } } };
  applyDefaults({ group: 'apps', resource: 'deployments' }, d);
  assert.deepEqual(d.spec.strategy, { type: 'Recreate' });
  assert.equal(d.spec.replicas, 0);
});

test('statefulsets, daemonsets and replicasets get their apps/v1 defaults', () => {
  const sts: any = { spec: {} };
  applyDefaults({ group: 'apps', resource: 'statefulsets' }, sts);
  assert.equal(sts.spec.podManagementPolicy, 'OrderedReady');
  assert.deepEqual(sts.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  const ds: any = { spec: {} };
  applyDefaults({ group: 'apps', resource: 'daemonsets' }, ds);
  assert.deepEqual(ds.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
  const rs: any = { spec: {} };
  applyDefaults({ group: 'apps', resource: 'replicasets' }, rs);
  assert.equal(rs.spec.replicas, 1);
});

test('a namespace gets its metadata.name label and phase Active', () => {
  const ns: any = { metadata: { name: 'team-a' } };
  applyDefaults({ group: '', resource: 'namespaces' }, ns);
  assert.deepEqual(ns.metadata.labels, { 'kubernetes.io/metadata.name': 'team-a' });
  assert.equal(ns.status.phase, 'Active');
});

test('the defaults plugin runs on create and update but not on delete', async () => {
  const plugin = defaultsPlugin();
  const created: any = { spec: { containers: [] } };
  await plugin.admit(podAttrs(created));
  assert.equal(created.spec.restartPolicy, 'Always');
  const deleted: any = { spec: { containers: [] } };
  await plugin.admit(podAttrs(deleted, { operation: 'DELETE' }));
  assert.equal(deleted.spec.restartPolicy, undefined);
});
