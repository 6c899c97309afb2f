/**
 * What the proxy steps share: the proxy facet, the Services and EndpointSlices a scenario writes
 * through the API (Services without a selector, slices labelled with the Service's name, as
 * anyone may write them), and readers for the text formats the node tools print.
 */
import assert from 'node:assert/strict';
import type { ProxyFacet, ProxyMode } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { collectionPath, expectSuccess } from '../kube/api.ts';

export function proxy(world: KubespecWorld): ProxyFacet {
  const p = world.session.proxy;
  assert.ok(p, 'this scenario uses the proxy facet but is not tagged @requires:proxy.rules');
  return p;
}

/** "IPVS" in the prose, "ipvs" in kube-proxy's --proxy-mode. */
export function modeOf(text: string): ProxyMode {
  return text.toLowerCase() as ProxyMode;
}

/** The node the scenario's "kube-proxy in … mode on node X" named; connections go there by default. */
export function proxyNode(world: KubespecWorld): string {
  return world.recall<string>('proxy node');
}

/** A Service port's protocol (core/v1 Protocol). */
export type Protocol = 'TCP' | 'UDP' | 'SCTP';

export interface ServiceOptions {
  clusterIP?: string;
  port?: number;
  targetPort?: number;
  type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer';
  nodePort?: number;
  sessionAffinity?: string;
  timeoutSeconds?: number;
  externalTrafficPolicy?: string;
  internalTrafficPolicy?: string;
  /** Named ports instead of the one `port`/`targetPort`. */
  ports?: { name: string; port: number; targetPort: number }[];
  /** The one port's protocol (TCP by default). */
  protocol?: Protocol;
}

export function serviceBody(name: string, o: ServiceOptions): any {
  const affinity = o.sessionAffinity ? { sessionAffinity: o.sessionAffinity } : {};
  const timeout = o.timeoutSeconds !== undefined ? { sessionAffinityConfig: { clientIP: { timeoutSeconds: o.timeoutSeconds } } } : {};
  return {
    apiVersion: 'v1', kind: 'Service', metadata: { name },
    spec: {
      ...(o.type ? { type: o.type } : {}),
      ...(o.clusterIP ? { clusterIP: o.clusterIP } : {}),
      ports: o.ports?.map((p) => ({ ...p, protocol: 'TCP' })) ?? [{ port: o.port ?? 80, targetPort: o.targetPort ?? 8080, protocol: o.protocol ?? 'TCP', ...(o.nodePort !== undefined ? { nodePort: o.nodePort } : {}) }],
      ...affinity, ...timeout,
      ...(o.externalTrafficPolicy ? { externalTrafficPolicy: o.externalTrafficPolicy } : {}),
      ...(o.internalTrafficPolicy ? { internalTrafficPolicy: o.internalTrafficPolicy } : {}),
    },
  };
}

/** POSTs a Service; the answer is kept as "create answer". Services are removed after the scenario. */
export async function postService(world: KubespecWorld, name: string, o: ServiceOptions): Promise<any> {
  const kube = world.kube();
  const path = collectionPath('', 'services', kube.namespace);
  const res = await kube.request({ method: 'POST', path, body: serviceBody(name, o) });
  world.note('create answer', res);
  if (res.status === 201) world.onCleanup(() => kube.request({ method: 'DELETE', path: `${path}/${name}` }));
  return res;
}

export async function createService(world: KubespecWorld, name: string, o: ServiceOptions): Promise<any> {
  return expectSuccess(await postService(world, name, o), `create Service "${name}"`);
}

export async function getService(world: KubespecWorld, name: string): Promise<any> {
  const kube = world.kube();
  return expectSuccess(await kube.request({ method: 'GET', path: `${collectionPath('', 'services', kube.namespace)}/${name}` }), `get Service "${name}"`);
}

export interface EndpointSpec {
  ip: string;
  node?: string;
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

const slicePath = (world: KubespecWorld) => collectionPath('discovery.k8s.io', 'endpointslices', world.kube().namespace);

function sliceBody(service: string, ports: SlicePort[], eps: EndpointSpec[]): any {
  return {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    // A manager other than the controller's, so a real cluster's EndpointSlice controller leaves it alone.
    metadata: { name: `${service}-kubespec`, labels: { 'kubernetes.io/service-name': service, 'endpointslice.kubernetes.io/managed-by': 'kubespec-steps' } },
    addressType: 'IPv4',
    ports: ports.map((p) => ({ name: p.name, port: p.port, protocol: p.protocol ?? 'TCP' })),
    endpoints: eps.map((e) => ({
      addresses: [e.ip],
      conditions: { ready: e.ready ?? true, serving: e.serving ?? e.ready ?? true, terminating: e.terminating ?? false },
      ...(e.node ? { nodeName: e.node } : {}),
    })),
  };
}

/** A port of an EndpointSlice: `name` matches the Service port's name ("" for an unnamed one). */
export interface SlicePort {
  name: string;
  port: number;
  /** Matched with the Service port's protocol, as kube-proxy matches them (TCP by default). */
  protocol?: Protocol;
}

/** Creates or replaces the Service's one EndpointSlice; remembers what it lists. */
export async function writeSlice(world: KubespecWorld, service: string, port: number | SlicePort[], eps: EndpointSpec[], protocol?: Protocol): Promise<void> {
  const kube = world.kube();
  const path = `${slicePath(world)}/${service}-kubespec`;
  const current = await kube.request({ method: 'GET', path });
  const ports = typeof port === 'number' ? [{ name: '', port, ...(protocol ? { protocol } : {}) }] : port;
  const body = sliceBody(service, ports, eps);
  if (current.status === 200) {
    body.metadata.resourceVersion = current.json.metadata.resourceVersion;
    expectSuccess(await kube.request({ method: 'PUT', path, body }), `update the EndpointSlice of "${service}"`);
  } else {
    expectSuccess(await kube.request({ method: 'POST', path: slicePath(world), body }), `create the EndpointSlice of "${service}"`);
    world.onCleanup(() => kube.request({ method: 'DELETE', path }));
  }
  world.note(`endpoints of ${service}`, { port: ports[0]!.port, eps });
}

export async function deleteSlice(world: KubespecWorld, service: string): Promise<void> {
  await world.kube().request({ method: 'DELETE', path: `${slicePath(world)}/${service}-kubespec` });
}

/** Endpoint addresses the steps make up: the k-th endpoint (k ≥ 1) of the scenario's i-th Service. */
function endpointIp(serviceIndex: number, k: number): string {
  const n = serviceIndex * 16 + k;
  return `10.244.${(n >> 8) & 255}.${(n & 255) || 254}`;
}

/** A Service with n ready endpoints on port 8080; noted by name → address for "a", "b", … */
export async function serviceWithEndpoints(world: KubespecWorld, name: string, n: number, o: ServiceOptions = {}, names: string[] = []): Promise<any> {
  const svc = await createService(world, name, o);
  const index = nextServiceIndex(world);
  const eps = Array.from({ length: n }, (_, k) => ({ ip: endpointIp(index, k + 1) }));
  await writeSlice(world, name, o.targetPort ?? 8080, eps);
  names.forEach((label, k) => world.note(`endpoint ${label}`, `${eps[k]!.ip}:${o.targetPort ?? 8080}`));
  return svc;
}

function nextServiceIndex(world: KubespecWorld): number {
  let i = 1;
  try {
    i = world.recall<number>('service index') + 1;
  } catch {
    // first Service of the scenario
  }
  world.note('service index', i);
  return i;
}

/** Waits until every node proxy the scenario started has caught up with what the API server holds. */
export async function synced(world: KubespecWorld, node = proxyNode(world)): Promise<void> {
  const p = proxy(world);
  await world.eventually(`kube-proxy on node "${node}" to sync`, () => p.synced(node), 10_000);
}

// ---- iptables-save text -------------------------------------------------------------------

export interface SavedRule {
  chain: string;
  tokens: string[];
  line: string;
}

/**
 * The `-A` lines of an iptables-save dump, split into shell-like tokens: a quoted string is one
 * token, without its quotes (the real iptables-save quotes every comment: `--comment "ns/web"`);
 * and its `:CHAIN POLICY [packets:bytes]` headers: a built-in chain's policy (ACCEPT, DROP), or
 * "-" for a chain someone created.
 */
export function parseSave(text: string): { chains: string[]; rules: SavedRule[]; policies: Map<string, string> } {
  const chains: string[] = [];
  const rules: SavedRule[] = [];
  const policies = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) {
      const [name, policy] = line.slice(1).split(' ');
      chains.push(name!);
      policies.set(name!, policy ?? '');
    }
    if (!line.startsWith('-A ')) continue;
    const tokens = [...line.matchAll(/"([^"]*)"|\S+/g)].map((m) => m[1] ?? m[0]);
    rules.push({ chain: tokens[1]!, tokens: tokens.slice(2), line });
  }
  return { chains, rules, policies };
}

/**
 * Whether a rule carries the options of `wanted`, each option with its values, in any order:
 * "-m recent --rcheck --seconds 60" matches a rule printed "-m recent --rcheck --seconds 60 --reap …".
 * An option is a token starting with "-" (a "!" before it belongs to it) plus the values after it.
 */
export function hasOptions(rule: SavedRule, wanted: string): boolean {
  const groups = optionGroups(wanted.split(/\s+/).filter(Boolean));
  const have = optionGroups(rule.tokens).map((g) => g.join(' '));
  return groups.every((g) => have.some((h) => h === g.join(' ') || (g.length === 1 && h.startsWith(`${g[0]} `)) || h.startsWith(`${g.join(' ')} `)));
}

function optionGroups(tokens: string[]): string[][] {
  const groups: string[][] = [];
  for (const t of tokens) {
    const last = groups[groups.length - 1];
    const startsOption = t.startsWith('-') || t === '!';
    if (startsOption && !(last && last.length === 1 && last[0] === '!')) groups.push([t]);
    else if (last) last.push(t);
    else groups.push([t]);
  }
  return groups;
}

/** The chain a rule jumps to (`-j NAME`). */
export function jumpOf(rule: SavedRule): string | undefined {
  const i = rule.tokens.indexOf('-j');
  return i >= 0 ? rule.tokens[i + 1] : undefined;
}

/** A "KUBE-SVC-*" pattern. */
export function likePattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}

export async function nat(world: KubespecWorld, node: string): Promise<{ chains: string[]; rules: SavedRule[] }> {
  return parseSave(await proxy(world).iptablesSave(node, 'nat'));
}
