/**
 * The cloud-provider interface the CCM's controllers use, after k8s.io/cloud-provider cloud.go
 * (kubernetes/cloud-provider): InstancesV2 (InstanceExists, InstanceMetadata), Routes
 * (ListRoutes, CreateRoute, DeleteRoute) and LoadBalancer (GetLoadBalancer,
 * EnsureLoadBalancer, EnsureLoadBalancerDeleted) — and one implementation that calls the cloud's
 * HTTP API (api.ts) through an injected fetch.
 */
import type { Instance, LoadBalancer, LoadBalancerPort, Route } from './model.ts';

export interface InstanceMetadata {
  providerID: string;
  instanceType: string;
  addresses: { type: 'InternalIP' | 'ExternalIP' | 'Hostname'; address: string }[];
  zone: string;
  region: string;
}

export interface CloudProvider {
  /** InstancesV2.InstanceExists; by node name (and providerID when set). */
  instanceExists(nodeName: string): Promise<boolean>;
  /** InstancesV2.InstanceMetadata; undefined when the cloud has no such machine. */
  instanceMetadata(nodeName: string): Promise<InstanceMetadata | undefined>;
  listRoutes(cluster: string): Promise<Route[]>;
  createRoute(cluster: string, name: string, route: { destinationCIDR: string; targetNode: string }): Promise<void>;
  deleteRoute(name: string): Promise<void>;
  getLoadBalancer(name: string): Promise<LoadBalancer | undefined>;
  /** EnsureLoadBalancer: create or update; answers the status (its IP). */
  ensureLoadBalancer(cluster: string, name: string, spec: { service: string; ports: LoadBalancerPort[]; nodes: string[] }): Promise<{ ip: string }>;
  ensureLoadBalancerDeleted(name: string): Promise<void>;
}

/** The provider ID a Node gets: <provider>://<zone>/<instance id>, as aws:///<zone>/<id> does. */
export const PROVIDER_NAME = 'kubespec-cloud';

export function httpCloudProvider(base: string, fetchFn: typeof fetch): CloudProvider {
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const res = await fetchFn(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  const ok = (what: string, r: { status: number; json: any }, allow404 = false) => {
    if (r.status === 200 || (allow404 && r.status === 404)) return;
    throw new Error(`cloud API ${what}: ${r.status} ${r.json?.error ?? ''}`);
  };
  const instance = async (name: string): Promise<Instance | undefined> => {
    const r = await call('GET', `/v1/instances/${encodeURIComponent(name)}`);
    ok(`get instance ${name}`, r, true);
    return r.status === 404 ? undefined : (r.json as Instance);
  };
  return {
    instanceExists: async (name) => (await instance(name)) !== undefined,
    async instanceMetadata(name) {
      const i = await instance(name);
      if (!i) return undefined;
      return {
        providerID: `${PROVIDER_NAME}://${i.zone}/${i.id}`,
        instanceType: i.instanceType,
        addresses: [{ type: 'InternalIP', address: i.internalIP }, { type: 'ExternalIP', address: i.externalIP }, { type: 'Hostname', address: i.name }],
        zone: i.zone,
        region: i.region,
      };
    },
    async listRoutes(cluster) {
      const r = await call('GET', `/v1/routes?cluster=${encodeURIComponent(cluster)}`);
      ok('list routes', r);
      return r.json.items as Route[];
    },
    async createRoute(cluster, name, route) {
      ok(`create route ${name}`, await call('PUT', `/v1/routes/${encodeURIComponent(name)}`, { cluster, ...route }));
    },
    async deleteRoute(name) {
      ok(`delete route ${name}`, await call('DELETE', `/v1/routes/${encodeURIComponent(name)}`), true);
    },
    async getLoadBalancer(name) {
      const r = await call('GET', `/v1/loadbalancers/${encodeURIComponent(name)}`);
      ok(`get load balancer ${name}`, r, true);
      return r.status === 404 ? undefined : (r.json as LoadBalancer);
    },
    async ensureLoadBalancer(cluster, name, spec) {
      const r = await call('PUT', `/v1/loadbalancers/${encodeURIComponent(name)}`, { cluster, ...spec });
      ok(`ensure load balancer ${name}`, r);
      return { ip: r.json.ip };
    },
    async ensureLoadBalancerDeleted(name) {
      ok(`delete load balancer ${name}`, await call('DELETE', `/v1/loadbalancers/${encodeURIComponent(name)}`), true);
    },
  };
}
