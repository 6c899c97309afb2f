/**
 * Service allocation through the API: ClusterIPs from the service range, node ports from
 * 30000–32767, the refusals for requests outside them or already taken, and the defaults.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubeResponse } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, expectSuccess } from '../kube/api.ts';
import { createService, getService, postService, type ServiceOptions } from './support.ts';

function inCidr(ip: string, cidr: string): boolean {
  const toInt = (a: string) => a.split('.').reduce((n, p) => ((n << 8) + Number(p)) >>> 0, 0);
  const [base, bits] = cidr.split('/');
  const mask = Number(bits) === 0 ? 0 : (~0 << (32 - Number(bits))) >>> 0;
  return ((toInt(ip) & mask) >>> 0) === ((toInt(base!) & mask) >>> 0);
}

Given('an API server with service-cluster-ip-range {string}', function (this: KubespecWorld, cidr: string) {
  // The range is the API server's flag; the steps below check allocations fall inside it.
  this.note('service range', cidr);
});

Given('an API server with the default service-node-port-range', function (this: KubespecWorld) {
  this.note('node port range', [30000, 32767]);
});

When(/^I create a Service "([^"]+)" on port (\d+)(?: without a clusterIP| with clusterIP "([^"]+)")?$/, async function (this: KubespecWorld, name: string, port: string, ip: string | undefined) {
  await postService(this, name, { port: Number(port), ...(ip ? { clusterIP: ip } : {}) });
});

When('I create a Service {string} on port {int} with the clusterIP of Service {string}', async function (this: KubespecWorld, name: string, port: number, other: string) {
  await postService(this, name, { port, clusterIP: (await getService(this, other)).spec.clusterIP });
});

When(/^I create a Service "([^"]+)" on port (\d+) with sessionAffinity "([^"]+)"(?: and timeoutSeconds (\d+))?$/, async function (this: KubespecWorld, name: string, port: string, affinity: string, timeout: string | undefined) {
  await postService(this, name, { port: Number(port), sessionAffinity: affinity, ...(timeout != null ? { timeoutSeconds: Number(timeout) } : {}) });
});

When(/^I create a Service "([^"]+)" of type (NodePort|LoadBalancer) port (\d+)(?: without a nodePort| with nodePort (\d+))?$/, async function (this: KubespecWorld, name: string, type: string, port: string, nodePort: string | undefined) {
  const o: ServiceOptions = { type: type as ServiceOptions['type'], port: Number(port), targetPort: Number(port), ...(nodePort ? { nodePort: Number(nodePort) } : {}) };
  await postService(this, name, o);
});

When('I create a Service {string} of type NodePort port {int} with the nodePort of Service {string}', async function (this: KubespecWorld, name: string, port: number, other: string) {
  await postService(this, name, { type: 'NodePort', port, nodePort: (await getService(this, other)).spec.ports[0].nodePort });
});

When('I create {int} Services of type NodePort without a nodePort', async function (this: KubespecWorld, n: number) {
  const ports: number[] = [];
  for (let i = 0; i < n; i++) ports.push((await createService(this, `np-${i}`, { type: 'NodePort' })).spec.ports[0].nodePort);
  this.note('node ports', ports);
});

Then('their nodePorts are {int} distinct numbers between {int} and {int}', function (this: KubespecWorld, n: number, lo: number, hi: number) {
  const ports = this.recall<number[]>('node ports');
  assert.equal(new Set(ports).size, n, JSON.stringify(ports));
  assert.ok(ports.every((p) => p >= lo && p <= hi), JSON.stringify(ports));
});

/** "201", or "422 Invalid with a cause on field "F" saying "M"". */
Then(/^the (create|update) answer is (\d+)(?: (\w+) with a cause on field "([^"]+)" saying "(.+)")?$/, function (this: KubespecWorld, which: string, code: string, reason: string | undefined, field: string | undefined, message: string | undefined) {
  const res = this.recall<KubeResponse>(`${which} answer`);
  const shown = `HTTP ${res.status} ${res.text.slice(0, 600)}`;
  assert.equal(res.status, Number(code), shown);
  if (!reason) return;
  assert.equal(res.json?.reason, reason, shown);
  const causes: { field?: string; message?: string }[] = res.json?.details?.causes ?? [];
  assert.ok(causes.some((c) => c.field === field && (c.message ?? '').includes(message!)), `no cause on ${field} saying "${message}": ${shown}`);
});

Then('Service {string} has a clusterIP inside {string}', async function (this: KubespecWorld, name: string, cidr: string) {
  const ip = (await getService(this, name)).spec.clusterIP;
  assert.ok(inCidr(ip, cidr), `${ip} is not in ${cidr}`);
  this.note(`clusterIP of ${name}`, ip);
});

Then('Service {string} has the same clusterIP as before', async function (this: KubespecWorld, name: string) {
  assert.equal((await getService(this, name)).spec.clusterIP, this.recall<string>(`clusterIP of ${name}`));
});

When('I update Service {string} setting spec.clusterIP to another free address in the range', async function (this: KubespecWorld, name: string) {
  const kube = this.kube();
  const svc = await getService(this, name);
  const parts = svc.spec.clusterIP.split('.').map(Number);
  parts[2] = (parts[2] + 7) % 256;
  svc.spec.clusterIP = parts.join('.');
  svc.spec.clusterIPs = [svc.spec.clusterIP];
  this.note('update answer', await kube.request({ method: 'PUT', path: `${collectionPath('', 'services', kube.namespace)}/${name}`, body: svc }));
});

Then('Service {string} has a non-empty clusterIP', async function (this: KubespecWorld, name: string) {
  assert.ok((await getService(this, name)).spec.clusterIP);
});

Then('Service {string} has a clusterIP and a nodePort between {int} and {int}', async function (this: KubespecWorld, name: string, lo: number, hi: number) {
  const res = this.recall<KubeResponse>('create answer');
  expectSuccess(res, `create Service "${name}"`);
  const svc = await getService(this, name);
  assert.ok(svc.spec.clusterIP && svc.spec.clusterIP !== 'None', JSON.stringify(svc.spec));
  const np = svc.spec.ports[0].nodePort;
  assert.ok(np >= lo && np <= hi, `nodePort ${np}`);
});

Then('Service {string} has sessionAffinityConfig.clientIP.timeoutSeconds {int}', async function (this: KubespecWorld, name: string, seconds: number) {
  assert.equal((await getService(this, name)).spec.sessionAffinityConfig?.clientIP?.timeoutSeconds, seconds);
});
