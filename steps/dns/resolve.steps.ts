/**
 * Service discovery through the cluster DNS: the steps write Services and EndpointSlices through
 * the API and ask the cluster's DNS server (DnsFacet.server) with a real resolver — Node's
 * dns.promises.Resolver (c-ares) over UDP (TCP when an answer comes back truncated), one per
 * wait (Node's resolver keeps no answer cache).
 * Every check waits (virtual time on the reference, real time elsewhere) until the DNS server's
 * informers have seen the write.
 */
import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import { Given, Then, When } from '@cucumber/cucumber';
import type { DnsFacet } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, expandNs, expectSuccess } from '../kube/api.ts';
import { getService, writeSlice, type EndpointSpec } from '../proxy/support.ts';

type Answer = { rcode: 'NOERROR' | 'NXDOMAIN' | string; records: string[] };

function dns(world: KubespecWorld): DnsFacet {
  const d = world.session.dns;
  assert.ok(d, 'this scenario queries the cluster DNS but is not tagged @requires:cluster.dns');
  return d;
}

/** A real resolver pointed at the cluster DNS server only. */
async function resolverFor(world: KubespecWorld): Promise<Resolver> {
  const { host, port } = await dns(world).server();
  const resolver = new Resolver({ timeout: 1000, tries: 2 });
  resolver.setServers([host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`]);
  return resolver;
}

/** One query: the records as text ("10.96.0.10", "80 web.ns.svc.cluster.local"), or the error's rcode. */
async function query(resolver: Resolver, type: string, name: string): Promise<Answer> {
  try {
    if (type === 'SRV') return { rcode: 'NOERROR', records: (await resolver.resolveSrv(name)).map((r) => `${r.port} ${r.name}`).sort() };
    const records = type === 'AAAA' ? await resolver.resolve6(name) : type === 'A' ? await resolver.resolve4(name) : (await resolver.resolveTxt(name)).map((t) => t.join(''));
    return { rcode: 'NOERROR', records: records.sort() };
  } catch (error) {
    // c-ares: ENOTFOUND is NXDOMAIN; ENODATA is a NOERROR answer with no record of the type.
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOTFOUND' ? { rcode: 'NXDOMAIN', records: [] } : code === 'ENODATA' ? { rcode: 'NOERROR', records: [] } : { rcode: String(code), records: [] };
  }
}

/** Asks until the answer is `wanted`; the last answer is the failure message. */
async function answersWithin(world: KubespecWorld, seconds: number, type: string, rawName: string, wanted: Answer): Promise<void> {
  const name = expandNs(world.kube(), rawName);
  let last: Answer | undefined;
  const show = (a: Answer | undefined) => (a ? `${a.rcode} [${a.records.join(', ')}]` : 'no answer');
  const resolver = await resolverFor(world);
  try {
    await world.eventually(`${type} ${name} answers ${show(wanted)}`, async () => {
      last = await query(resolver, type, name);
      return last.rcode === wanted.rcode && JSON.stringify(last.records) === JSON.stringify([...wanted.records].sort());
    }, seconds * 1000);
  } catch {
    assert.fail(`a query for ${type} ${name} answered ${show(last)}, wanted ${show(wanted)}`);
  } finally {
    resolver.cancel();
  }
}

const list = (text: string) => text.split(',').map((s) => s.trim()).filter((s) => s !== '');

// ---- Services and their endpoints --------------------------------------------------------------

async function postService(world: KubespecWorld, name: string, spec: Record<string, unknown>): Promise<void> {
  const kube = world.kube();
  const body = { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec };
  expectSuccess(await kube.request({ method: 'POST', path: collectionPath('', 'services', kube.namespace), body }), `create Service "${name}"`);
}

Given('a Service {string} with ports {string} {int} and {string} {int}', async function (this: KubespecWorld, name: string, n1: string, p1: number, n2: string, p2: number) {
  await postService(this, name, { ports: [{ name: n1, port: p1, targetPort: 8080, protocol: 'TCP' }, { name: n2, port: p2, targetPort: 9090, protocol: 'TCP' }] });
});

Given('a headless Service {string} with port {string} {int}', async function (this: KubespecWorld, name: string, portName: string, port: number) {
  await postService(this, name, { clusterIP: 'None', ports: [{ name: portName, port, targetPort: port, protocol: 'TCP' }] });
});

/** `"10.244.7.1" ready, "10.244.7.3" not ready` → endpoints with their ready condition. */
function endpoints(text: string): EndpointSpec[] {
  return [...text.matchAll(/"([^"]+)" (ready|not ready)/g)].map((m) => ({ ip: m[1]!, ready: m[2] === 'ready', serving: m[2] === 'ready' }));
}

Given(/^an EndpointSlice for Service "([^"]+)" on port "([^"]+)" (\d+) with endpoints (.+)$/, async function (this: KubespecWorld, service: string, portName: string, port: string, text: string) {
  await writeSlice(this, service, [{ name: portName, port: Number(port) }], endpoints(text));
  this.note(`dns slice port of ${service}`, { name: portName, port: Number(port) });
});

When(/^the EndpointSlice of Service "([^"]+)" is rewritten with endpoints (.+)$/, async function (this: KubespecWorld, service: string, text: string) {
  await writeSlice(this, service, [this.recall<{ name: string; port: number }>(`dns slice port of ${service}`)], endpoints(text));
});

When('Service {string} is deleted', async function (this: KubespecWorld, name: string) {
  const kube = this.kube();
  expectSuccess(await kube.request({ method: 'DELETE', path: `${collectionPath('', 'services', kube.namespace)}/${name}` }), `delete Service "${name}"`);
});

// ---- Queries -----------------------------------------------------------------------------------

Then('within {int} seconds a query for A {string} answers the clusterIP of Service {string}', async function (this: KubespecWorld, seconds: number, name: string, service: string) {
  const ip = (await getService(this, service)).spec.clusterIP;
  await answersWithin(this, seconds, 'A', name, { rcode: 'NOERROR', records: [ip] });
});

Then(/^within (\d+) seconds a query for (A|AAAA|SRV) "([^"]+)" answers exactly "([^"]*)"$/, async function (this: KubespecWorld, seconds: string, type: string, name: string, records: string) {
  await answersWithin(this, Number(seconds), type, name, { rcode: 'NOERROR', records: list(expandNs(this.kube(), records)) });
});

Then(/^within (\d+) seconds a query for (A|AAAA|SRV|TXT) "([^"]+)" answers (NXDOMAIN|NODATA)$/, async function (this: KubespecWorld, seconds: string, type: string, name: string, outcome: string) {
  await answersWithin(this, Number(seconds), type, name, { rcode: outcome === 'NODATA' ? 'NOERROR' : 'NXDOMAIN', records: [] });
});
