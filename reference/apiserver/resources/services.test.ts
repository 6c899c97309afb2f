import assert from 'node:assert/strict';
import test from 'node:test';
import { allocateServiceAddresses, usedAddresses } from './services.ts';
import { ApiError } from '../status.ts';

const svc = (spec: any) => ({ metadata: { name: 'np' }, spec: { ports: [{ port: 80 }], ...spec } });
const used = () => usedAddresses([{ spec: { clusterIP: '10.96.0.10', ports: [{ port: 80, nodePort: 30080 }] } }]);

function rejection(spec: any): { message: string; field: string } {
  try {
    allocateServiceAddresses(svc(spec), used());
  } catch (e) {
    assert.ok(e instanceof ApiError);
    assert.equal(e.code, 422);
    return { message: e.message, field: (e as any).details.causes[0].field };
  }
  assert.fail('accepted');
}

test('a requested ClusterIP outside the service CIDR, or taken, is 422 with the allocator\'s message', () => {
  assert.match(rejection({ clusterIP: '10.0.0.1' }).message, /spec\.clusterIPs: Invalid value: .*failed to allocate IP 10\.0\.0\.1: provided IP is not in the valid range\. The range of valid IPs is 10\.96\.0\.0\/12/);
  assert.match(rejection({ clusterIP: '10.96.0.10' }).message, /failed to allocate IP 10\.96\.0\.10: provided IP is already allocated/);
});

test('a requested nodePort outside 30000-32767, or taken, is 422 on spec.ports[i].nodePort', () => {
  const out = rejection({ type: 'NodePort', ports: [{ port: 80, nodePort: 29999 }] });
  assert.equal(out.field, 'spec.ports[0].nodePort');
  assert.match(out.message, /provided port is not in the valid range\. The range of valid ports is 30000-32767/);
  assert.match(rejection({ type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }).message, /provided port is already allocated/);
});

test('free requests are kept; missing ones are allocated', () => {
  const s = svc({ type: 'NodePort', clusterIP: '10.96.0.77', ports: [{ port: 80, nodePort: 32767 }, { port: 81 }] });
  allocateServiceAddresses(s, used());
  assert.equal(s.spec.clusterIP, '10.96.0.77');
  assert.equal(s.spec.ports[0].nodePort, 32767);
  assert.equal(s.spec.ports[1].nodePort, 30000);
});
