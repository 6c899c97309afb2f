import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import type { ApiRequest } from '../apiserver/types.ts';
import { ReferenceCluster } from './cluster.ts';
import { VirtualClock } from './virtual-clock.ts';
import { service, slice } from '../proxy/testing.ts';

const MASTER = { subjectCN: 'admin', subjectO: ['system:masters'] };

async function post(c: ReferenceCluster, url: string, body: unknown): Promise<number> {
  const req: ApiRequest = { method: 'POST', url, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)), clientCert: MASTER };
  return (await c.api.handle(req)).status;
}

async function until(clock: VirtualClock, what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !ok(); i++) {
    for (let t = 0; t < 3; t++) await turn();
    clock.advance(10);
  }
  assert.ok(ok(), what);
}

test('kube-proxy lists and watches Services and EndpointSlices as system:kube-proxy and programs what it sees', async () => {
  const clock = new VirtualClock();
  const c = await ReferenceCluster.start({ seed: 5, clock, secure: { anonymous: false } });
  try {
    await c.proxies.start('n1', { mode: 'iptables' });
    const web = service({ name: 'web', clusterIP: '10.96.0.50' });
    assert.equal(await post(c, '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', ...web }), 201);
    assert.equal(await post(c, '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', ...slice('web', 8080, [{ ip: '10.244.1.10' }]) }), 201);
    await until(clock, 'the DNAT rule appears', () => (c.proxies.proxy('n1')?.iptablesSave('nat') ?? '').includes('--to-destination 10.244.1.10:8080'));
    const proxyRequests = c.api.traces.filter((t) => t.user === 'system:kube-proxy');
    assert.ok(proxyRequests.some((t) => t.path === '/api/v1/services'), 'lists Services cluster-wide');
    assert.ok(proxyRequests.some((t) => t.path === '/apis/discovery.k8s.io/v1/endpointslices'), 'lists EndpointSlices cluster-wide');
    assert.ok(proxyRequests.every((t) => t.code === 200), `RBAC (system:node-proxier) allows them: ${JSON.stringify(proxyRequests.map((t) => [t.path, t.code]))}`);
  } finally {
    await c.stop();
  }
});

test('kube-proxy asked for IPVS mode on a kernel without ip_vs exits with an error and programs nothing', async () => {
  const c = await ReferenceCluster.start({ seed: 6, clock: new VirtualClock() });
  try {
    await c.proxies.start('n1', { mode: 'ipvs', kernelModules: ['nf_conntrack'] });
    assert.equal(c.proxies.status('n1').running, false);
    assert.match(c.proxies.status('n1').error ?? '', /IPVS proxier/);
    assert.equal(c.proxies.proxy('n1'), undefined);
  } finally {
    await c.stop();
  }
});
