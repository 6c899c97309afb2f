import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerQuestion, type ClusterView, type DnsConfig } from './records.ts';

const config: DnsConfig = { zone: 'cluster.local', ttl_s: 5, serial: 1 };

function service(name: string, spec: Record<string, unknown>, namespace = 'shop'): any {
  return { metadata: { name, namespace }, spec };
}

function slice(service: string, endpoints: { ip: string; ready?: boolean; hostname?: string }[], ports: { name?: string; port: number; protocol?: string }[], namespace = 'shop'): any {
  return {
    metadata: { name: `${service}-abc`, namespace, labels: { 'kubernetes.io/service-name': service } },
    endpoints: endpoints.map((e) => ({ addresses: [e.ip], conditions: e.ready === undefined ? {} : { ready: e.ready }, ...(e.hostname ? { hostname: e.hostname } : {}) })),
    ports,
  };
}

const view: ClusterView = {
  namespaces: new Set(['shop', 'default']),
  services: [
    service('web', { type: 'ClusterIP', clusterIP: '10.96.0.50', clusterIPs: ['10.96.0.50'], ports: [{ name: 'http', port: 80, protocol: 'TCP' }, { port: 9090, protocol: 'TCP' }] }),
    service('db', { type: 'ClusterIP', clusterIP: 'None', ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }] }),
    service('empty', { type: 'ClusterIP', clusterIP: 'None', ports: [{ name: 'pg', port: 5432 }] }),
    service('ext', { type: 'ExternalName', externalName: 'db.example.com' }),
    service('dual', { type: 'ClusterIP', clusterIP: '10.96.0.60', clusterIPs: ['10.96.0.60', 'fd00::60'], ports: [{ name: 'http', port: 80 }] }),
  ],
  endpointSlices: [
    slice('db', [{ ip: '10.244.1.5', ready: true, hostname: 'db-0' }, { ip: '10.244.1.6' }, { ip: '10.244.1.7', ready: false }], [{ name: 'pg', port: 15432, protocol: 'TCP' }]),
    slice('empty', [{ ip: '10.244.2.1', ready: false }], [{ name: 'pg', port: 5432 }]),
  ],
};

const ask = (name: string, type: string) => answerQuestion(view, { name, type }, config);
const data = (a: ReturnType<typeof ask>) => a.answers.map((r) => r.data);

test('a ClusterIP Service name answers A with its ClusterIP, TTL 5 s, case-insensitively and with a trailing dot', () => {
  const a = ask('WEB.Shop.svc.cluster.local.', 'A');
  assert.equal(a.rcode, 'NOERROR');
  assert.deepEqual(data(a), ['10.96.0.50']);
  assert.equal(a.answers[0]!.ttl, 5);
});

test('an existing name asked for a type it has none of is NODATA (NOERROR, no answer, the SOA), not NXDOMAIN', () => {
  const a = ask('web.shop.svc.cluster.local', 'AAAA');
  assert.equal(a.rcode, 'NOERROR');
  assert.deepEqual(a.answers, []);
  assert.equal(a.authorities[0]!.type, 'SOA');
  assert.equal(ask('web.shop.svc.cluster.local', 'TXT').rcode, 'NOERROR');
});

test('a Service that does not exist, or one in another namespace, is NXDOMAIN with the SOA', () => {
  assert.equal(ask('nope.shop.svc.cluster.local', 'A').rcode, 'NXDOMAIN');
  assert.equal(ask('web.default.svc.cluster.local', 'A').rcode, 'NXDOMAIN');
  assert.equal(ask('web.shop.svc.cluster.local', 'A').authorities.length, 0);
  assert.equal(ask('nope.shop.svc.cluster.local', 'A').authorities[0]!.type, 'SOA');
});

test('a headless Service answers with its ready endpoints only (unset ready counts as ready)', () => {
  assert.deepEqual(data(ask('db.shop.svc.cluster.local', 'A')).sort(), ['10.244.1.5', '10.244.1.6']);
});

test('a headless Service with no ready endpoint is NXDOMAIN', () => {
  assert.equal(ask('empty.shop.svc.cluster.local', 'A').rcode, 'NXDOMAIN');
});

test('SRV for a named port of a ClusterIP Service: the Service port, target the Service name, its A in the additional section', () => {
  const a = ask('_http._tcp.web.shop.svc.cluster.local', 'SRV');
  assert.deepEqual(data(a), [{ priority: 0, weight: 100, port: 80, target: 'web.shop.svc.cluster.local' }]);
  assert.deepEqual(a.additionals.map((r) => [r.name, r.data]), [['web.shop.svc.cluster.local', '10.96.0.50']]);
});

test('SRV for a port name or protocol the Service does not have is NXDOMAIN', () => {
  assert.equal(ask('_https._tcp.web.shop.svc.cluster.local', 'SRV').rcode, 'NXDOMAIN');
  assert.equal(ask('_http._udp.web.shop.svc.cluster.local', 'SRV').rcode, 'NXDOMAIN');
});

test('SRV of a headless Service: one per ready endpoint, the endpoint port, target its hostname or dashed IP', () => {
  const a = ask('_pg._tcp.db.shop.svc.cluster.local', 'SRV');
  assert.deepEqual(data(a).map((d: any) => `${d.port} ${d.target} ${d.weight}`).sort(), [
    '15432 10-244-1-6.db.shop.svc.cluster.local 50',
    '15432 db-0.db.shop.svc.cluster.local 50',
  ]);
  assert.deepEqual(a.additionals.map((r) => `${r.name} ${r.data}`).sort(), ['10-244-1-6.db.shop.svc.cluster.local 10.244.1.6', 'db-0.db.shop.svc.cluster.local 10.244.1.5']);
});

test('a headless endpoint answers by its hostname; a not-ready one does not exist', () => {
  assert.deepEqual(data(ask('db-0.db.shop.svc.cluster.local', 'A')), ['10.244.1.5']);
  assert.equal(ask('10-244-1-7.db.shop.svc.cluster.local', 'A').rcode, 'NXDOMAIN');
});

test('an ExternalName Service is a CNAME to its external name', () => {
  const a = ask('ext.shop.svc.cluster.local', 'A');
  assert.deepEqual(a.answers.map((r) => [r.type, r.data]), [['CNAME', 'db.example.com']]);
});

test('a dual-stack Service answers AAAA with its IPv6 ClusterIP', () => {
  assert.deepEqual(data(ask('dual.shop.svc.cluster.local', 'AAAA')), ['fd00::60']);
  assert.deepEqual(data(ask('dual.shop.svc.cluster.local', 'A')), ['10.96.0.60']);
});

test('pod names answer the dashed address in a namespace that exists (pods insecure)', () => {
  assert.deepEqual(data(ask('10-244-1-9.shop.pod.cluster.local', 'A')), ['10.244.1.9']);
  assert.equal(ask('10-244-1-9.gone.pod.cluster.local', 'A').rcode, 'NXDOMAIN');
});

test('a namespace name exists (NODATA) when the namespace does; the zone answers SOA and dns-version', () => {
  assert.equal(ask('shop.svc.cluster.local', 'A').rcode, 'NOERROR');
  assert.equal(ask('gone.svc.cluster.local', 'A').rcode, 'NXDOMAIN');
  assert.equal(ask('cluster.local', 'SOA').answers[0]!.type, 'SOA');
  assert.deepEqual(data(ask('dns-version.cluster.local', 'TXT')), [['1.1.0']]);
});

test('a name outside the zone is REFUSED', () => {
  assert.equal(ask('example.com', 'A').rcode, 'REFUSED');
});
