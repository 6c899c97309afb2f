import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Expectations } from '../expectations.ts';
import { memoryCache } from '../testing.ts';
import type { Action, KubeObject } from '../types.ts';
import { ENDPOINTSLICE_MANAGER, keysFor, reconcile } from './index.ts';

const svc = (extra: any = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'ns', uid: 'svc-uid', labels: { team: 'a' } }, spec: { clusterIP: '10.96.0.10', selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }], ...extra } });
const node = (name: string, zone?: string): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, ...(zone ? { labels: { 'topology.kubernetes.io/zone': zone } } : {}) } });
function pod(name: string, ip: string, o: { ready?: boolean; deleting?: boolean; port?: number; phase?: string; labels?: Record<string, string>; node?: string } = {}): KubeObject {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels: o.labels ?? { app: 'web' }, ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: { nodeName: o.node ?? 'n1', containers: [{ name: 'app', image: 'x', ports: [{ name: 'http', containerPort: o.port ?? 8080, protocol: 'TCP' }] }] },
    status: { phase: o.phase ?? 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  };
}
const run = (objects: Record<string, KubeObject[]>, max?: number) => reconcile('ns/web', memoryCache(objects), 0, new Expectations(), max).actions;
const creates = (actions: Action[]) => actions.filter((a): a is Extract<Action, { verb: 'create' }> => a.verb === 'create').map((a) => a.object as any);

test('a Service with two ready pods gets one slice naming both, labelled, owned by the Service, with the named port resolved', () => {
  const [slice, ...rest] = creates(run({ services: [svc()], pods: [pod('a', '10.0.0.1'), pod('b', '10.0.0.2')], nodes: [node('n1', 'z1')] }));
  assert.equal(rest.length, 0);
  assert.deepEqual(slice.metadata.labels, { team: 'a', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
  assert.equal(slice.metadata.generateName, 'web-');
  assert.deepEqual(slice.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'svc-uid', controller: true, blockOwnerDeletion: true }]);
  assert.equal(slice.addressType, 'IPv4');
  assert.deepEqual(slice.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
  assert.deepEqual(slice.endpoints[0], { addresses: ['10.0.0.1'], conditions: { ready: true, serving: true, terminating: false }, targetRef: { kind: 'Pod', namespace: 'ns', name: 'a', uid: 'uid-a' }, nodeName: 'n1', zone: 'z1' });
  assert.deepEqual(slice.endpoints.map((e: any) => e.addresses[0]), ['10.0.0.1', '10.0.0.2']);
});

test('an unready pod is listed not ready and not serving; a terminating ready one serving, terminating and not ready', () => {
  const [slice] = creates(run({ services: [svc()], pods: [pod('a', '10.0.0.1', { ready: false }), pod('b', '10.0.0.2', { deleting: true })], nodes: [node('n1')] }));
  assert.deepEqual(slice.endpoints.map((e: any) => e.conditions), [{ ready: false, serving: false, terminating: false }, { ready: false, serving: true, terminating: true }]);
});

test('publishNotReadyAddresses makes every endpoint ready', () => {
  const [slice] = creates(run({ services: [svc({ publishNotReadyAddresses: true })], pods: [pod('a', '10.0.0.1', { ready: false })], nodes: [node('n1')] }));
  assert.equal(slice.endpoints[0].conditions.ready, true);
});

test('pods that finished, have no IP, do not match, or whose node is unknown are left out', () => {
  const pods = [pod('done', '10.0.0.1', { phase: 'Succeeded' }), pod('noip', ''), pod('other', '10.0.0.3', { labels: { app: 'db' } }), pod('lost', '10.0.0.4', { node: 'gone' })];
  const [slice] = creates(run({ services: [svc()], pods, nodes: [node('n1')] }));
  assert.deepEqual(slice.endpoints, [], 'only the placeholder');
  assert.deepEqual(slice.ports, []);
});

test('pods whose named port resolves to different numbers go to different slices', () => {
  const slices = creates(run({ services: [svc()], pods: [pod('a', '10.0.0.1', { port: 8080 }), pod('b', '10.0.0.2', { port: 9090 })], nodes: [node('n1')] }));
  assert.deepEqual(slices.map((s) => [s.ports[0].port, s.endpoints.length]).sort(), [[8080, 1], [9090, 1]]);
});

test('no slice holds more than maxEndpointsPerSlice endpoints', () => {
  const pods = Array.from({ length: 250 }, (_, i) => pod(`p${i}`, `10.0.${Math.floor(i / 200)}.${i % 200}`));
  const slices = creates(run({ services: [svc()], pods, nodes: [node('n1')] }));
  assert.deepEqual(slices.map((s) => s.endpoints.length), [100, 100, 50]);
  assert.deepEqual(creates(run({ services: [svc()], pods: pods.slice(0, 5), nodes: [node('n1')] }, 2)).map((s) => s.endpoints.length), [2, 2, 1]);
});

test('an existing slice is updated in place when a pod turns unready, deleted when its last pod goes', () => {
  const objects = { services: [svc()], pods: [pod('a', '10.0.0.1'), pod('b', '10.0.0.2')], nodes: [node('n1')], endpointslices: [] as KubeObject[] };
  const [first] = creates(run(objects));
  const stored = { ...first, metadata: { ...first.metadata, name: 'web-abc', uid: 's1', resourceVersion: '5' } };
  objects.endpointslices = [stored];
  assert.deepEqual(run(objects), [], 'nothing to do when the slice is current');
  objects.pods = [pod('a', '10.0.0.1'), pod('b', '10.0.0.2', { ready: false })];
  const [update] = run(objects);
  assert.equal(update!.verb, 'update');
  assert.equal((update as any).object.metadata.resourceVersion, '5');
  assert.deepEqual((update as any).object.endpoints.map((e: any) => e.conditions.ready), [true, false]);
  objects.pods = [];
  const actions = run(objects);
  assert.deepEqual(actions.map((a) => a.verb).sort(), ['create', 'delete'], 'the slice goes, an empty placeholder comes');
});

test('a Service without a selector, or of type ExternalName, gets nothing; slices of another manager are left alone', () => {
  assert.deepEqual(run({ services: [svc({ selector: undefined })], pods: [pod('a', '10.0.0.1')], nodes: [node('n1')] }), []);
  assert.deepEqual(run({ services: [svc({ type: 'ExternalName' })], pods: [pod('a', '10.0.0.1')], nodes: [node('n1')] }), []);
  const foreign = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-x', namespace: 'ns', uid: 'f', labels: { 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'someone-else' } }, addressType: 'IPv4', endpoints: [], ports: [] };
  assert.ok(run({ services: [svc()], pods: [], nodes: [node('n1')], endpointslices: [foreign] }).every((a) => a.verb === 'create'));
});

test('a managed slice owned by an older Service of the same name is deleted', () => {
  const old = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-x', namespace: 'ns', uid: 'old-slice', labels: { 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': ENDPOINTSLICE_MANAGER }, ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'older' }] }, addressType: 'IPv4', endpoints: [], ports: [] };
  const actions = run({ services: [svc()], pods: [pod('a', '10.0.0.1')], nodes: [node('n1')], endpointslices: [old] });
  assert.ok(actions.some((a) => a.verb === 'delete' && a.uid === 'old-slice'));
});

test('while its creates are unobserved it does nothing; the slice appearing in the cache releases it', () => {
  const expectations = new Expectations();
  const objects = { services: [svc()], pods: [pod('a', '10.0.0.1')], nodes: [node('n1')] };
  assert.equal(reconcile('ns/web', memoryCache(objects), 0, expectations).actions.length, 1);
  assert.equal(reconcile('ns/web', memoryCache(objects), 0, expectations).actions.length, 0, 'no second create');
  const slice = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-1', namespace: 'ns', labels: { 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': ENDPOINTSLICE_MANAGER } } } as KubeObject;
  assert.deepEqual(keysFor({ type: 'ADDED', resource: 'endpointslices', object: slice }, memoryCache(objects), expectations), ['ns/web']);
  assert.ok(expectations.satisfied('ns/web', 0));
});

test('a pod relabelled makes dirty the Services it matched before and after', () => {
  const cache = memoryCache({ services: [svc(), { ...svc({ selector: { app: 'api' } }), metadata: { name: 'api', namespace: 'ns', uid: 'u2' } }] });
  const keys = keysFor({ type: 'MODIFIED', resource: 'pods', object: pod('a', '10.0.0.1', { labels: { app: 'api' } }), oldObject: pod('a', '10.0.0.1') }, cache, new Expectations());
  assert.deepEqual(keys.sort(), ['ns/api', 'ns/web']);
});
