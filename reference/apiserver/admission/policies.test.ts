import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdmissionDenied } from '../pipeline.ts';
import { namespaceLifecycle } from './lifecycle.ts';
import { denyServiceExternalIPs } from './externalips.ts';
import { attrsFor, podAttrs } from './testutil.ts';

const namespaces: Record<string, any> = { default: { status: { phase: 'Active' } }, dying: { status: { phase: 'Terminating' } } };
const lifecycle = namespaceLifecycle({ getNamespace: (n) => namespaces[n] });

test('creating in a namespace that does not exist is 404 namespaces "x" not found', async () => {
  await assert.rejects(lifecycle.admit(podAttrs({ metadata: { name: 'p' } }, { namespace: 'nope' })), (e: unknown) => {
    assert.ok(e instanceof AdmissionDenied);
    assert.equal(e.code, 404);
    assert.equal(e.reason, 'NotFound');
    assert.equal(e.message, 'namespaces "nope" not found');
    return true;
  });
});

test('creating in a terminating namespace is forbidden', async () => {
  await assert.rejects(
    lifecycle.admit(podAttrs({ metadata: { name: 'p' } }, { namespace: 'dying' })),
    { message: 'pods "p" is forbidden: unable to create new content in namespace dying because it is being terminated' },
  );
});

test('deleting objects in a terminating namespace is allowed', async () => {
  await lifecycle.admit(podAttrs(undefined, { namespace: 'dying', name: 'p', operation: 'DELETE' }));
});

test('the default namespace may not be deleted', async () => {
  const attrs = attrsFor('namespaces', 'Namespace', '', undefined, { namespace: '', name: 'default', operation: 'DELETE' });
  await assert.rejects(lifecycle.admit(attrs), { message: 'namespaces "default" is forbidden: this namespace may not be deleted' });
});

test('cluster-scoped objects and namespaces themselves pass the lifecycle check', async () => {
  await lifecycle.admit(attrsFor('nodes', 'Node', '', { metadata: { name: 'n1' } }, { namespace: '' }));
  await lifecycle.admit(attrsFor('namespaces', 'Namespace', '', { metadata: { name: 'new' } }, { namespace: '' }));
});

const svc = (ips?: string[]) => ({ metadata: { name: 's' }, spec: { ports: [{ port: 80 }], ...(ips ? { externalIPs: ips } : {}) } });
const svcAttrs = (obj: any, old?: any) =>
  attrsFor('services', 'Service', '', obj, { operation: old ? 'UPDATE' : 'CREATE', ...(old ? { oldObject: old } : {}) });

test('a service with externalIPs is denied by DenyServiceExternalIPs', async () => {
  await assert.rejects(denyServiceExternalIPs().validate(svcAttrs(svc(['1.2.3.4']))), {
    message: 'services "s" is forbidden: Use of external IPs is denied by admission control',
  });
});

test('a service without externalIPs, or keeping ones it had, is allowed', async () => {
  await denyServiceExternalIPs().validate(svcAttrs(svc()));
  await denyServiceExternalIPs().validate(svcAttrs(svc(['1.2.3.4']), svc(['1.2.3.4', '5.6.7.8'])));
  await assert.rejects(denyServiceExternalIPs().validate(svcAttrs(svc(['9.9.9.9']), svc(['1.2.3.4']))), AdmissionDenied);
});
