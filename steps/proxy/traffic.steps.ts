/**
 * Connections through a node's proxy rules (`proxy.dataplane`): each is a new connection's first
 * packet from some client; the answer says where it went. Clients off the node arrive at it
 * (PREROUTING); "from node X" means a process on the node (OUTPUT); "from a pod on node X" is a
 * pod's packet arriving from its veth (PREROUTING, source in the pod network).
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { ProxyConnectResult } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { getService, proxy, proxyNode, synced } from './support.ts';

interface Sent {
  src: string;
  result: ProxyConnectResult;
}

/** The i-th made-up client outside the cluster (TEST-NET-3 and neighbours). */
const outsideClient = (i: number) => `203.0.${113 + (i >> 8)}.${i & 255}`;
/** A pod on the k-th node: 10.244.250+ keeps clear of the scenarios' endpoint addresses. */
const podOn = (node: string) => `10.244.250.${(node.charCodeAt(node.length - 1) % 200) + 2}`;

async function send(world: KubespecWorld, node: string, dst: string, port: number, srcs: string[], fromNode = false, protocol?: 'TCP' | 'UDP'): Promise<Sent[]> {
  const p = proxy(world);
  assert.ok(p.connect, 'this target declares proxy.dataplane but offers no connect()');
  const sent: Sent[] = [];
  for (const src of srcs) sent.push({ src, result: await p.connect(node, { src, dst, port, fromNode, ...(protocol ? { protocol } : {}) }) });
  world.note('connections', sent);
  return sent;
}

async function clusterIPOf(world: KubespecWorld, service: string): Promise<{ ip: string; port: number; nodePort?: number }> {
  const svc = await getService(world, service);
  return { ip: svc.spec.clusterIP, port: svc.spec.ports[0].port, nodePort: svc.spec.ports[0].nodePort };
}

const sent = (world: KubespecWorld) => world.recall<Sent[]>('connections');
const backends = (world: KubespecWorld) => sent(world).map((s) => s.result.backend ?? `(${s.result.outcome})`);
const endpoint = (world: KubespecWorld, label: string) => world.recall<string>(`endpoint ${label}`);

function tally(list: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const b of list) m.set(b, (m.get(b) ?? 0) + 1);
  return m;
}

// ---- sending -------------------------------------------------------------------------------

When(/^I open (\d+) new connections? to Service "([^"]+)"( from node "[^"]+")?( one after another)?$/, async function (this: KubespecWorld, n: string, service: string, fromNode: string | undefined, _oneByOne: string | undefined) {
  await synced(this);
  const { ip, port } = await clusterIPOf(this, service);
  await send(this, proxyNode(this), ip, port, Array.from({ length: Number(n) }, (_, i) => outsideClient(i)), !!fromNode);
});

When('one client opens {int} new connections to Service {string}', async function (this: KubespecWorld, n: number, service: string) {
  await synced(this);
  const { ip, port } = await clusterIPOf(this, service);
  await send(this, proxyNode(this), ip, port, Array(n).fill(outsideClient(7)));
});

When('{int} clients each open {int} new connections to Service {string}', async function (this: KubespecWorld, clients: number, n: number, service: string) {
  await synced(this);
  const { ip, port } = await clusterIPOf(this, service);
  const srcs = Array.from({ length: clients }, (_, c) => Array(n).fill(outsideClient(c + 1))).flat();
  await send(this, proxyNode(this), ip, port, srcs);
});

When(/^I open (\d+) new (?:(UDP|TCP) )?connections? to "([\d.]+):(\d+)" from a pod on node "([^"]+)"( once the proxy has synced)?$/, async function (this: KubespecWorld, n: string, protocol: 'UDP' | 'TCP' | undefined, ip: string, port: string, node: string, _synced: string | undefined) {
  await synced(this, node);
  await send(this, node, ip, Number(port), Array(Number(n)).fill(podOn(node)), false, protocol);
});

When('I open {int} new connections to the clusterIP of Service {string} from a pod on node {string}', async function (this: KubespecWorld, n: number, service: string, node: string) {
  await synced(this, node);
  const { ip, port } = await clusterIPOf(this, service);
  await send(this, node, ip, port, Array(n).fill(podOn(node)));
});

/** The pod behind an endpoint address, on its node: a backend calling its own Service. */
When('the pod {string} on node {string} opens {int} new connections to {string}', async function (this: KubespecWorld, pod: string, node: string, n: number, target: string) {
  await synced(this, node);
  const [ip, port] = target.split(':');
  await send(this, node, ip!, Number(port), Array(n).fill(pod));
});

When('a client outside the cluster connects to node {string} port {int}', async function (this: KubespecWorld, node: string, port: number) {
  await synced(this, node);
  await send(this, node, await proxy(this).nodeAddress(node), port, [outsideClient(1)]);
});

When('{int} outside clients connect to node {string} on the nodePort of Service {string}', async function (this: KubespecWorld, n: number, node: string, service: string) {
  await synced(this, node);
  const { nodePort } = await clusterIPOf(this, service);
  await send(this, node, await proxy(this).nodeAddress(node), nodePort!, Array.from({ length: n }, (_, i) => outsideClient(i)));
});

When(/^one client opens 1 new connection to Service "([^"]+)" every (\d+) seconds, (\d+) times$/, async function (this: KubespecWorld, service: string, every: string, times: string) {
  await synced(this);
  const { ip, port } = await clusterIPOf(this, service);
  const all: Sent[] = [];
  for (let i = 0; i < Number(times); i++) {
    await this.clock().advance(Number(every) * 1000);
    all.push(...(await send(this, proxyNode(this), ip, port, [outsideClient(9)])));
  }
  this.note('connections', all);
});

When('I send {int} HTTP requests over one keep-alive connection to Service {string}', async function (this: KubespecWorld, n: number, service: string) {
  const p = proxy(this);
  assert.ok(p.http, 'this target declares proxy.traffic but offers no http()');
  const { ip, port } = await clusterIPOf(this, service);
  const results = await p.http(proxyNode(this), { dst: ip, port, requests: n, keepAlive: true });
  this.note('connections', results.map((result) => ({ src: 'client', result })));
});

// ---- what happened -------------------------------------------------------------------------

Then('each of {names} received between {int} and {int} connections', function (this: KubespecWorld, labels: string[], lo: number, hi: number) {
  const counts = tally(backends(this));
  for (const label of labels) {
    const n = counts.get(endpoint(this, label)) ?? 0;
    assert.ok(n >= lo && n <= hi, `"${label}" (${endpoint(this, label)}) received ${n}: ${JSON.stringify([...counts])}`);
  }
});

Then(/^all (\d+) (?:connections|requests) were answered by the same endpoint$/, function (this: KubespecWorld, n: string) {
  const got = backends(this);
  assert.equal(got.length, Number(n));
  assert.equal(new Set(got).size, 1, JSON.stringify([...tally(got)]));
  assert.ok(sent(this)[0]!.result.backend, `not forwarded: ${got[0]}`);
});

Then('all {int} connections were answered by an endpoint of Service {string}', function (this: KubespecWorld, n: number, service: string) {
  const { eps, port } = this.recall<{ port: number; eps: { ip: string }[] }>(`endpoints of ${service}`);
  const allowed = new Set(eps.map((e) => `${e.ip}:${port}`));
  const got = backends(this);
  assert.equal(got.length, n);
  assert.ok(got.every((b) => allowed.has(b)), JSON.stringify(got));
});

Then('the answering endpoints alternate between {string} and {string}', function (this: KubespecWorld, a: string, b: string) {
  const got = backends(this);
  const [x, y] = [endpoint(this, a), endpoint(this, b)];
  const start = got[0] === x ? 0 : 1;
  got.forEach((g, i) => assert.equal(g, (i + start) % 2 === 0 ? x : y, `connection ${i + 1}: ${JSON.stringify(got)}`));
});

Then('each client\'s connections were all answered by one endpoint', function (this: KubespecWorld) {
  const byClient = new Map<string, Set<string>>();
  for (const s of sent(this)) byClient.set(s.src, (byClient.get(s.src) ?? new Set()).add(s.result.backend ?? s.result.outcome));
  for (const [client, set] of byClient) assert.equal(set.size, 1, `${client} went to ${[...set].join(', ')}`);
});

Then(/^every connection was answered by ((?:"[^"]+"(?: or )?)+)$/, function (this: KubespecWorld, list: string) {
  const allowed = new Set([...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]!));
  const got = backends(this);
  assert.ok(got.length > 0 && got.every((b) => allowed.has(b)), JSON.stringify([...tally(got)]));
});

Then(/^every connection was (rejected|dropped)$/, function (this: KubespecWorld, outcome: string) {
  const got = sent(this).map((s) => s.result.outcome);
  assert.ok(got.length > 0 && got.every((o) => o === outcome), JSON.stringify([...tally(got)]));
});

Then('both {string} and {string} received at least {int} connection(s)', function (this: KubespecWorld, a: string, b: string, n: number) {
  const counts = tally(backends(this));
  for (const x of [a, b]) assert.ok((counts.get(x) ?? 0) >= n, JSON.stringify([...counts]));
});

/** Whatever else became of them (passed on untouched, or refused), none reached a backend. */
Then('no connection reached an endpoint', function (this: KubespecWorld) {
  assert.ok(sent(this).length > 0 && sent(this).every((s) => s.result.outcome !== 'forwarded' && !s.result.backend), JSON.stringify(sent(this)));
});

Then('no connection was redirected by the proxy', function (this: KubespecWorld) {
  assert.ok(sent(this).every((s) => s.result.outcome === 'no-match' && !s.result.backend), JSON.stringify(sent(this)));
});

Then('no connection was masqueraded', function (this: KubespecWorld) {
  assert.ok(sent(this).every((s) => s.result.masqueraded === false), JSON.stringify(sent(this)));
});

Then('the connection is answered by {string}', function (this: KubespecWorld, backend: string) {
  assert.deepEqual(backends(this), [backend]);
});

Then(/^those connections were answered by (more than one endpoint|one endpoint)$/, function (this: KubespecWorld, how: string) {
  const got = backends(this);
  assert.ok(got.every((b) => !b.startsWith('(')), JSON.stringify(got));
  const distinct = new Set(got).size;
  assert.ok(how === 'one endpoint' ? distinct === 1 : distinct > 1, `${distinct} distinct: ${JSON.stringify(got)}`);
});

Then(/^a connection to the (first|last) Service is forwarded$/, async function (this: KubespecWorld, which: string) {
  const names = this.recall<string[]>('bulk services');
  await synced(this);
  const { ip, port } = await clusterIPOf(this, which === 'first' ? names[0]! : names[names.length - 1]!);
  const [s] = await send(this, proxyNode(this), ip, port, [outsideClient(1)]);
  assert.equal(s!.result.outcome, 'forwarded');
});

Then('a connection from node {string} to the clusterIP of Service {string} port {int} is answered by {string}', async function (this: KubespecWorld, node: string, service: string, port: number, backend: string) {
  await synced(this, node);
  const { ip } = await clusterIPOf(this, service);
  const [s] = await send(this, node, ip, port, [await proxy(this).nodeAddress(node)], true);
  assert.equal(s!.result.backend, backend, JSON.stringify(s));
});

Then('a connection from outside to the nodePort of Service {string} on each of {string} is answered by {string}', async function (this: KubespecWorld, service: string, nodes: string, backend: string) {
  const { nodePort } = await clusterIPOf(this, service);
  for (const node of nodes.split(/,\s*/)) {
    await synced(this, node);
    const [s] = await send(this, node, await proxy(this).nodeAddress(node), nodePort!, [outsideClient(3)]);
    assert.equal(s!.result.backend, backend, `node ${node}: ${JSON.stringify(s)}`);
  }
});

Then(/^within (\d+) seconds the proxy rules of node "([^"]+)" forward "([\d.]+):(\d+)\/TCP" to "([^"]+)"$/, async function (this: KubespecWorld, secs: string, node: string, ip: string, port: string, backend: string) {
  // Read from the rules the node's mode writes, so any target with proxy.rules can answer.
  const p = proxy(this);
  await this.eventually(`node ${node} forwards ${ip}:${port} to ${backend}`, async () => {
    const [nat, ipvs, nft] = await Promise.all([p.iptablesSave(node, 'nat'), p.ipvsadmSave(node), p.nftList(node)]);
    const byIptables = nat.includes(`-d ${ip}/32`) && nat.includes(`--to-destination ${backend}`);
    const byIpvs = ipvs.includes(`-a -t ${ip}:${port} -r ${backend}`);
    const byNft = nft.includes(`${ip} . tcp . ${port}`) && nft.includes(`dnat to ${backend}`);
    return byIptables || byIpvs || byNft;
  }, Number(secs) * 1000);
});

// ---- masquerading and node-local sources ----------------------------------------------------

Then('every connection was masqueraded', function (this: KubespecWorld) {
  assert.ok(sent(this).length > 0 && sent(this).every((s) => s.result.masqueraded === true), JSON.stringify(sent(this)));
});

When('a pod on node {string} opens {int} new connections to the nodePort of Service {string} on its node', async function (this: KubespecWorld, node: string, n: number, service: string) {
  await synced(this, node);
  const { nodePort } = await clusterIPOf(this, service);
  await send(this, node, await proxy(this).nodeAddress(node), nodePort!, Array(n).fill(podOn(node)));
});

When('a process on node {string} opens {int} new connections to the nodePort of Service {string} on its node', async function (this: KubespecWorld, node: string, n: number, service: string) {
  await synced(this, node);
  const { nodePort } = await clusterIPOf(this, service);
  const address = await proxy(this).nodeAddress(node);
  await send(this, node, address, nodePort!, Array(n).fill(address), true);
});
