/**
 * A small in-memory cloud: machines (instances) in zones, a route table for the cluster's pod
 * network, and load balancers with public IPs. It is what the simulated cloud API (api.ts)
 * serves; the cloud-controller-manager never sees it except through that API. Deterministic:
 * ids and addresses come from counters.
 */

export interface Instance {
  id: string;
  name: string;
  region: string;
  zone: string;
  instanceType: string;
  internalIP: string;
  externalIP: string;
}

export interface Route {
  name: string;
  /** The cluster the route belongs to (routes of other clusters are left alone). */
  cluster: string;
  destinationCIDR: string;
  targetNode: string;
}

export interface LoadBalancerPort {
  name?: string;
  protocol: string;
  port: number;
  nodePort: number;
}

export interface LoadBalancer {
  name: string;
  cluster: string;
  /** namespace/name of the Service it was made for (a description, as clouds keep one). */
  service: string;
  ip: string;
  ports: LoadBalancerPort[];
  /** Node names behind it. */
  nodes: string[];
}

export const REGION = 'kubespec-1';

export class CloudModel {
  readonly instances = new Map<string, Instance>();
  readonly routes = new Map<string, Route>();
  readonly loadBalancers = new Map<string, LoadBalancer>();
  private nextInstance = 1;
  private nextLbIp = 10;

  addInstance(name: string, zone = `${REGION}a`): Instance {
    if (this.instances.has(name)) throw new Error(`instance ${name} exists`);
    const n = this.nextInstance++;
    const instance: Instance = {
      id: `i-${n.toString(16).padStart(8, '0')}`,
      name,
      region: REGION,
      zone,
      instanceType: 'standard-2',
      internalIP: `10.0.0.${n + 10}`,
      // TEST-NET-2 (RFC 5737) for machine public IPs, TEST-NET-3 for load balancers.
      externalIP: `198.51.100.${n + 10}`,
    };
    this.instances.set(name, instance);
    return instance;
  }

  deleteInstance(name: string): boolean {
    return this.instances.delete(name);
  }

  putRoute(route: Route): void {
    this.routes.set(route.name, { ...route });
  }

  deleteRoute(name: string): boolean {
    return this.routes.delete(name);
  }

  /** Create or update; an existing balancer keeps its IP. */
  putLoadBalancer(lb: Omit<LoadBalancer, 'ip'>): LoadBalancer {
    const ip = this.loadBalancers.get(lb.name)?.ip ?? `203.0.113.${this.nextLbIp++}`;
    const stored: LoadBalancer = { ...lb, ip, ports: lb.ports.map((p) => ({ ...p })), nodes: [...lb.nodes] };
    this.loadBalancers.set(lb.name, stored);
    return stored;
  }

  deleteLoadBalancer(name: string): boolean {
    return this.loadBalancers.delete(name);
  }
}
