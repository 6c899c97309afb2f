import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import dgram from 'node:dgram';
import { setImmediate as turn } from 'node:timers/promises';
import dnsPacket from 'dns-packet';
import type { ApiRequest } from '../apiserver/types.ts';
import { ReferenceCluster } from './cluster.ts';
import { VirtualClock } from './virtual-clock.ts';
import { COREDNS_USER } from './dns.ts';

const MASTER = { subjectCN: 'admin', subjectO: ['system:masters'] };

async function post(c: ReferenceCluster, url: string, body: unknown): Promise<number> {
  const req: ApiRequest = { method: 'POST', url, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)), clientCert: MASTER };
  return (await c.api.handle(req)).status;
}

/** A real resolver (c-ares, as Node's dns module has it) pointed at the cluster DNS. */
function resolverFor(address: { host: string; port: number }): Resolver {
  const r = new Resolver({ timeout: 2000, tries: 1 });
  r.setServers([`${address.host}:${address.port}`]);
  return r;
}

async function eventually<T>(clock: VirtualClock, what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const got = await probe().catch(() => undefined);
    if (got !== undefined) return got;
    for (let t = 0; t < 3; t++) await turn();
    clock.advance(10);
  }
  assert.fail(what);
}

test('the cluster DNS lists and watches as the coredns ServiceAccount and answers a real resolver over UDP', async () => {
  const clock = new VirtualClock();
  const c = await ReferenceCluster.start({ seed: 7, clock, secure: { anonymous: false } });
  try {
    const dns = await c.startDns();
    const resolver = resolverFor(dns.address);
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { clusterIP: '10.96.0.50', ports: [{ name: 'http', port: 80 }] } };
    assert.equal(await post(c, '/api/v1/namespaces/default/services', service), 201);
    const a = await eventually(clock, 'web resolves', async () => (await resolver.resolve4('web.default.svc.cluster.local')));
    assert.deepEqual(a, ['10.96.0.50']);
    assert.deepEqual(await resolver.resolveSrv('_http._tcp.web.default.svc.cluster.local'), [{ name: 'web.default.svc.cluster.local', port: 80, priority: 0, weight: 100 }]);
    await assert.rejects(resolver.resolve4('nope.default.svc.cluster.local'), { code: 'ENOTFOUND' });
    await assert.rejects(resolver.resolve6('web.default.svc.cluster.local'), { code: 'ENODATA' });
    const requests = c.api.traces.filter((t) => t.user === COREDNS_USER);
    for (const path of ['/api/v1/services', '/apis/discovery.k8s.io/v1/endpointslices', '/api/v1/namespaces']) assert.ok(requests.some((t) => t.path === path), `lists ${path}`);
    assert.ok(requests.every((t) => t.code === 200), `RBAC (system:coredns) allows them: ${JSON.stringify(requests.map((t) => [t.path, t.code]))}`);
  } finally {
    await c.stop();
  }
});

test('a packet that is not a query the server can read gets FORMERR, and two questions too', async () => {
  const c = await ReferenceCluster.start({ seed: 8, clock: new VirtualClock() });
  const socket = dgram.createSocket('udp4');
  try {
    const { host, port } = (await c.startDns()).address;
    const ask = (packet: Buffer) => new Promise<dnsPacket.DecodedPacket & { rcode?: string }>((done) => {
      socket.once('message', (m) => done(dnsPacket.decode(m) as dnsPacket.DecodedPacket & { rcode?: string }));
      socket.send(packet, port, host);
    });
    const garbage = Buffer.from([0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
    assert.equal((await ask(garbage)).rcode, 'FORMERR');
    const two = dnsPacket.encode({ type: 'query', id: 9, questions: [{ type: 'A', name: 'a.cluster.local' }, { type: 'A', name: 'b.cluster.local' }] });
    const answer = await ask(two);
    assert.equal(answer.id, 9);
    assert.equal(answer.rcode, 'FORMERR');
  } finally {
    socket.close();
    await c.stop();
  }
});

test('an answer too big for 512 bytes of UDP comes back truncated and the resolver gets it whole over TCP', async () => {
  const clock = new VirtualClock();
  const c = await ReferenceCluster.start({ seed: 9, clock });
  try {
    const dns = await c.startDns();
    const ips = Array.from({ length: 40 }, (_, k) => `10.244.3.${k + 1}`);
    assert.equal(await post(c, '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'many' }, spec: { clusterIP: 'None', ports: [{ name: 'http', port: 80 }] } }), 201);
    const slice = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'many-1', labels: { 'kubernetes.io/service-name': 'many' } }, addressType: 'IPv4', ports: [{ name: 'http', port: 80, protocol: 'TCP' }], endpoints: ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } })) };
    assert.equal(await post(c, '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', slice), 201);
    const got = await eventually(clock, 'many resolves', async () => {
      const a = await resolverFor(dns.address).resolve4('many.default.svc.cluster.local');
      return a.length === ips.length ? a : undefined;
    });
    assert.deepEqual([...got].sort(), [...ips].sort());
  } finally {
    await c.stop();
  }
});
