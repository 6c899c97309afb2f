import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryCache } from '../testing.ts';
import type { KubeObject } from '../types.ts';
import { MAX_CAPACITY, reconcile } from './index.ts';

const svc = (extra: any = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'ns', uid: 's', labels: { team: 'a' } }, spec: { clusterIP: '10.96.0.10', selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }], ...extra } });
function pod(name: string, ip: string, o: { ready?: boolean; deleting?: boolean } = {}): KubeObject {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels: { app: 'web' }, ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: { nodeName: 'n1', containers: [{ name: 'app', image: 'x' }] },
    status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  };
}

test('ready pods go under addresses and unready ones under notReadyAddresses, in one subset with the resolved port', () => {
  const [action] = reconcile('ns/web', memoryCache({ services: [svc()], pods: [pod('b', '10.0.0.2', { ready: false }), pod('a', '10.0.0.1')] }));
  assert.equal(action!.verb, 'create');
  const ep = (action as any).object;
  assert.equal(ep.metadata.name, 'web');
  assert.deepEqual(ep.metadata.labels, { team: 'a' });
  assert.deepEqual(ep.subsets, [{
    addresses: [{ ip: '10.0.0.1', nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'ns', name: 'a', uid: 'uid-a' } }],
    notReadyAddresses: [{ ip: '10.0.0.2', nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'ns', name: 'b', uid: 'uid-b' } }],
    ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  }]);
});

test('terminating pods are left out of Endpoints', () => {
  const [action] = reconcile('ns/web', memoryCache({ services: [svc()], pods: [pod('a', '10.0.0.1', { deleting: true })] }));
  assert.deepEqual((action as any).object.subsets, []);
});

test('an Endpoints object already current is left alone; one whose Service is gone is deleted', () => {
  const [action] = reconcile('ns/web', memoryCache({ services: [svc()], pods: [pod('a', '10.0.0.1')] }));
  const stored = { ...(action as any).object, metadata: { ...(action as any).object.metadata, uid: 'e1', resourceVersion: '3' } };
  assert.deepEqual(reconcile('ns/web', memoryCache({ services: [svc()], pods: [pod('a', '10.0.0.1')], endpoints: [stored] })), []);
  const [del] = reconcile('ns/web', memoryCache({ services: [], endpoints: [stored] }));
  assert.deepEqual([del!.verb, (del as any).uid], ['delete', 'e1']);
});

test('more than 1000 addresses are truncated and annotated over-capacity', () => {
  const pods = Array.from({ length: MAX_CAPACITY + 5 }, (_, i) => pod(`p${i}`, `10.1.${Math.floor(i / 250)}.${i % 250}`));
  const [action] = reconcile('ns/web', memoryCache({ services: [svc()], pods }));
  const ep = (action as any).object;
  assert.equal(ep.subsets[0].addresses.length, MAX_CAPACITY);
  assert.equal(ep.metadata.annotations['endpoints.kubernetes.io/over-capacity'], 'truncated');
});
