/**
 * The cloud-controller-manager seen from both sides: the cluster's objects through the API, and
 * the cloud's machines, routes and load balancers through the `cloud` facet (the provider's
 * console). Steps never reach the CCM itself.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { CloudLoadBalancer } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';

const UNINITIALIZED = 'node.cloudprovider.kubernetes.io/uninitialized';

function servicePath(world: KubespecWorld, name: string): string {
  return `/api/v1/namespaces/${world.kube().namespace}/services/${encodeURIComponent(name)}`;
}

async function getService(world: KubespecWorld, name: string): Promise<{ status: number; json: any }> {
  const res = await world.kube().request({ method: 'GET', path: servicePath(world, name) });
  return { status: res.status, json: res.json };
}

async function balancersFor(world: KubespecWorld, service: string): Promise<CloudLoadBalancer[]> {
  const key = `${world.kube().namespace}/${service}`;
  return (await world.cloud().loadBalancers()).filter((lb) => lb.service === key);
}

async function getNode(world: KubespecWorld, name: string): Promise<{ status: number; json: any }> {
  const res = await world.kube().request({ method: 'GET', path: `/api/v1/nodes/${encodeURIComponent(name)}` });
  return { status: res.status, json: res.json };
}

Given('a cluster with cloud nodes {names}', async function (this: KubespecWorld, names: string[]) {
  for (const name of names) await this.cloud().addMachine(name);
});

Given(/^a cluster with cloud nodes ((?:"[^"]*" with podCIDR "[^"]*"(?:, | and )?)+)$/, async function (this: KubespecWorld, list: string) {
  for (const m of list.matchAll(/"([^"]*)" with podCIDR "([^"]*)"/g)) await this.cloud().addMachine(m[1]!, { podCIDR: m[2]! });
});

When('I create a Service {string} of type LoadBalancer port {int} selecting {string}', async function (this: KubespecWorld, name: string, port: number, selector: string) {
  const [key, value] = selector.split('=');
  const res = await this.kube().request({
    method: 'POST',
    path: `/api/v1/namespaces/${this.kube().namespace}/services`,
    body: { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type: 'LoadBalancer', selector: { [key!]: value }, ports: [{ port, protocol: 'TCP', targetPort: port }] } },
  });
  assert.equal(res.status, 201, `create Service ${name}: ${res.status} ${res.text.slice(0, 300)}`);
});

Then(/^within (\d+) seconds the cloud has (?:exactly )?one load balancer for Service "([^"]*)"(?: listening on port (\d+))?$/, async function (this: KubespecWorld, seconds: string, name: string, port?: string) {
  await this.eventually(`one cloud load balancer for Service ${name}${port ? ` on port ${port}` : ''}`, async () => {
    const lbs = await balancersFor(this, name);
    return lbs.length === 1 && (!port || lbs[0]!.ports.some((p) => p.port === Number(port)));
  }, Number(seconds) * 1000);
  const lbs = await balancersFor(this, name);
  assert.equal(lbs.length, 1, `load balancers for ${name}: ${JSON.stringify(lbs)}`);
  this.note('load balancer', lbs[0]);
});

Then('Service {string} has status.loadBalancer.ingress with that load balancer\'s address', async function (this: KubespecWorld, name: string) {
  const lb = this.recall<CloudLoadBalancer>('load balancer');
  await this.eventually(`Service ${name} shows ${lb.ip}`, async () => (await getService(this, name)).json?.status?.loadBalancer?.ingress?.[0]?.ip === lb.ip, 10_000);
  assert.deepEqual((await getService(this, name)).json.status.loadBalancer.ingress.map((i: any) => i.ip), [lb.ip]);
});

Then('Service {string} has finalizer {string}', async function (this: KubespecWorld, name: string, finalizer: string) {
  assert.ok(((await getService(this, name)).json.metadata.finalizers ?? []).includes(finalizer), `finalizers: ${JSON.stringify((await getService(this, name)).json.metadata.finalizers)}`);
});

Then('within {int} seconds that load balancer sends to nodes {names}', async function (this: KubespecWorld, seconds: number, nodes: string[]) {
  const { name } = this.recall<CloudLoadBalancer>('load balancer');
  const want = JSON.stringify([...nodes].sort());
  const have = async () => JSON.stringify([...((await this.cloud().loadBalancers()).find((lb) => lb.name === name)?.nodes ?? [])].sort());
  await this.eventually(`load balancer ${name} sends to ${want}`, async () => (await have()) === want, seconds * 1000);
});

When('I change Service {string} to port {int}', async function (this: KubespecWorld, name: string, port: number) {
  const service = (await getService(this, name)).json;
  service.spec.ports = [{ ...service.spec.ports[0], port, targetPort: port }];
  const res = await this.kube().request({ method: 'PUT', path: servicePath(this, name), body: service });
  assert.equal(res.status, 200, `update Service ${name}: ${res.status} ${res.text.slice(0, 300)}`);
});

Then('within {int} seconds that cloud load balancer listens on port {int} and not on port {int}', async function (this: KubespecWorld, seconds: number, now: number, old: number) {
  const { name } = this.recall<CloudLoadBalancer>('load balancer');
  const find = async () => (await this.cloud().loadBalancers()).find((lb) => lb.name === name);
  await this.eventually(`load balancer ${name} on port ${now} only`, async () => {
    const ports = (await find())?.ports.map((p) => p.port) ?? [];
    return ports.includes(now) && !ports.includes(old);
  }, seconds * 1000);
});

When('I delete Service {string}', async function (this: KubespecWorld, name: string) {
  const res = await this.kube().request({ method: 'DELETE', path: servicePath(this, name) });
  assert.ok(res.status === 200 || res.status === 202, `delete Service ${name}: ${res.status} ${res.text.slice(0, 300)}`);
});

Then('within {int} seconds the cloud has no load balancer for Service {string}', async function (this: KubespecWorld, seconds: number, name: string) {
  await this.eventually(`no cloud load balancer for Service ${name}`, async () => (await balancersFor(this, name)).length === 0, seconds * 1000);
});

Then('Service {string} no longer exists', async function (this: KubespecWorld, name: string) {
  await this.eventually(`Service ${name} gone`, async () => (await getService(this, name)).status === 404, 10_000);
});

Then(/^within (\d+) seconds the cloud route table has routes (.+)$/, async function (this: KubespecWorld, seconds: string, list: string) {
  const wanted = [...list.matchAll(/"([^" ]+) → ([^"]+)"/g)].map((m) => `${m[1]} → ${m[2]}`).sort();
  assert.ok(wanted.length > 0, `no routes in "${list}"`);
  const have = async () => (await this.cloud().routes()).map((r) => `${r.destinationCIDR} → ${r.targetNode}`).sort();
  await this.eventually(`routes ${wanted.join(', ')}`, async () => JSON.stringify(await have()) === JSON.stringify(wanted), Number(seconds) * 1000);
});

Then('within {int} seconds the cloud route table has no route for {string}', async function (this: KubespecWorld, seconds: number, cidr: string) {
  await this.eventually(`no route for ${cidr}`, async () => !(await this.cloud().routes()).some((r) => r.destinationCIDR === cidr), seconds * 1000);
});

Then('node {string} has condition {string} with status {string}', async function (this: KubespecWorld, name: string, type: string, status: string) {
  await this.eventually(`node ${name} ${type}=${status}`, async () => ((await getNode(this, name)).json?.status?.conditions ?? []).some((c: any) => c.type === type && c.status === status), 15_000);
});

When('Node {string} is deleted', async function (this: KubespecWorld, name: string) {
  const res = await this.kube().request({ method: 'DELETE', path: `/api/v1/nodes/${encodeURIComponent(name)}` });
  assert.equal(res.status, 200, `delete Node ${name}: ${res.status} ${res.text.slice(0, 300)}`);
});

Then('within {int} seconds nodes {names} are initialised from the cloud: no uninitialized taint, a providerID and a zone label', async function (this: KubespecWorld, seconds: number, names: string[]) {
  for (const name of names) {
    await this.eventually(`node ${name} initialised`, async () => {
      const node = (await getNode(this, name)).json;
      return !(node?.spec?.taints ?? []).some((t: any) => t.key === UNINITIALIZED) && Boolean(node?.spec?.providerID) && Boolean(node?.metadata?.labels?.['topology.kubernetes.io/zone']);
    }, seconds * 1000);
  }
  const zones = await this.cloud().machines();
  for (const name of names) {
    const node = (await getNode(this, name)).json;
    assert.equal(node.metadata.labels['topology.kubernetes.io/zone'], zones.find((m) => m.name === name)?.zone);
    assert.ok((node.status?.addresses ?? []).some((a: any) => a.type === 'InternalIP'), `node ${name} has no InternalIP address: ${JSON.stringify(node.status?.addresses)}`);
  }
});

Then('Service {string} has an empty status.loadBalancer and no finalizer {string}', async function (this: KubespecWorld, name: string, finalizer: string) {
  const service = (await getService(this, name)).json;
  assert.deepEqual(service.status?.loadBalancer ?? {}, {}, `status.loadBalancer: ${JSON.stringify(service.status?.loadBalancer)}`);
  assert.ok(!(service.metadata.finalizers ?? []).includes(finalizer), `finalizers: ${JSON.stringify(service.metadata.finalizers)}`);
});

Then('no Node carries the taint {string}', async function (this: KubespecWorld, key: string) {
  const nodes = (await this.kube().request({ method: 'GET', path: '/api/v1/nodes' })).json?.items ?? [];
  const tainted = nodes.filter((n: any) => (n.spec?.taints ?? []).some((t: any) => t.key === key)).map((n: any) => n.metadata.name);
  assert.deepEqual(tainted, []);
});

// ---- nodes that stop responding (CCM-NODE-DELETED-IN-CLOUD) ---------------------------------------

// The test registered these nodes and stands in for their kubelets: from now on it sends nothing for them.
When('node {string} stops sending heartbeats and its instance is deleted in the cloud', async function (this: KubespecWorld, name: string) {
  await this.cloud().deleteMachine(name);
});

When('node {string} stops sending heartbeats but its instance still exists in the cloud', async function (this: KubespecWorld, name: string) {
  assert.ok((await this.cloud().machines()).some((m) => m.name === name), `the cloud has no machine "${name}"`);
});

Then('Node {string} no longer exists', async function (this: KubespecWorld, name: string) {
  const res = await getNode(this, name);
  assert.equal(res.status, 404, `Node "${name}" still exists: ${JSON.stringify(res.json?.status?.conditions)}`);
});

Then('Node {string} still exists with condition {string} status {string}', async function (this: KubespecWorld, name: string, type: string, status: string) {
  const res = await getNode(this, name);
  assert.equal(res.status, 200, `Node "${name}" is gone`);
  const c = (res.json.status?.conditions ?? []).find((x: any) => x.type === type);
  assert.equal(c?.status, status, JSON.stringify(c));
});
