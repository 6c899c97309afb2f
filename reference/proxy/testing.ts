/** Fixtures for the proxy's unit tests and the bench: Services and EndpointSlices as the API serves them. */
import { SERVICE_NAME_LABEL } from './model.ts';

export interface SvcSpec {
  name: string;
  namespace?: string;
  clusterIP: string;
  port?: number;
  targetPort?: number;
  type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer';
  nodePort?: number;
  affinityTimeout?: number;
  externalLocal?: boolean;
  internalLocal?: boolean;
}

export function service(s: SvcSpec): any {
  return {
    metadata: { name: s.name, namespace: s.namespace ?? 'default' },
    spec: {
      type: s.type ?? 'ClusterIP',
      clusterIP: s.clusterIP,
      ports: [{ port: s.port ?? 80, protocol: 'TCP', targetPort: s.targetPort ?? 8080, ...(s.nodePort ? { nodePort: s.nodePort } : {}) }],
      ...(s.affinityTimeout !== undefined ? { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: s.affinityTimeout } } } : { sessionAffinity: 'None' }),
      ...(s.externalLocal ? { externalTrafficPolicy: 'Local' } : {}),
      ...(s.internalLocal ? { internalTrafficPolicy: 'Local' } : {}),
    },
  };
}

export interface EpSpec {
  ip: string;
  node?: string;
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export function slice(svcName: string, port: number, eps: EpSpec[], namespace = 'default'): any {
  return {
    metadata: { name: `${svcName}-abc`, namespace, labels: { [SERVICE_NAME_LABEL]: svcName } },
    addressType: 'IPv4',
    ports: [{ name: '', port, protocol: 'TCP' }],
    endpoints: eps.map((e) => ({
      addresses: [e.ip],
      conditions: { ready: e.ready ?? true, serving: e.serving ?? e.ready ?? true, terminating: e.terminating ?? false },
      ...(e.node ? { nodeName: e.node } : {}),
    })),
  };
}

/** n Services, each with `perService` ready endpoints: 10.96.x.y → 10.244.x.y. */
export function manyServices(n: number, perService: number): { services: any[]; slices: any[] } {
  const services: any[] = [];
  const slices: any[] = [];
  for (let i = 0; i < n; i++) {
    const ip = `10.96.${(i >> 8) & 255}.${i & 255}`;
    services.push(service({ name: `s${i}`, clusterIP: ip }));
    const eps = Array.from({ length: perService }, (_, k) => ({ ip: addr(i * perService + k), node: `n${k % 3}` }));
    slices.push(slice(`s${i}`, 8080, eps));
  }
  return { services, slices };
}

/** The k-th address in 10.128.0.0/9. */
function addr(k: number): string {
  return `10.${128 + ((k >> 16) & 127)}.${(k >> 8) & 255}.${k & 255}`;
}
