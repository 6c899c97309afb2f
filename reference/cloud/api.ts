/**
 * The simulated cloud's HTTP API, as msw request handlers over a CloudModel: what a provider's
 * SDK would call (instances, routes, load balancers). The CCM reaches it with an ordinary
 * fetch; in the suite and in `kubespec serve --cloud` that fetch is answered by these handlers
 * (cloudFetch), so no port is opened, yet every call is a real Request and Response.
 *
 *   GET    /v1/instances/:name          → 200 Instance | 404
 *   GET    /v1/routes?cluster=C         → 200 { items: Route[] }
 *   PUT    /v1/routes/:name             ← { cluster, destinationCIDR, targetNode } → 200 Route
 *   DELETE /v1/routes/:name             → 200 | 404
 *   GET    /v1/loadbalancers/:name      → 200 LoadBalancer | 404
 *   PUT    /v1/loadbalancers/:name      ← { cluster, service, ports, nodes } → 200 LoadBalancer (with ip)
 *   DELETE /v1/loadbalancers/:name      → 200 | 404
 */
import type { RequestHandler } from 'msw';
import type { CloudModel, LoadBalancerPort } from './model.ts';

/**
 * msw, loaded on the first cloud call: importing it costs some 200 ms, which every process that
 * merely could start a cloud (each cucumber worker: the suite's bundle imports it) paid at start.
 */
type Msw = typeof import('msw');
let msw: Promise<Msw> | undefined;
const loadMsw = (): Promise<Msw> => (msw ??= import('msw'));

export function cloudApiHandlers({ http, HttpResponse }: Msw, model: CloudModel, base: string): RequestHandler[] {
  const notFound = (what: string) => HttpResponse.json({ error: `${what} not found` }, { status: 404 });
  return [
    http.get(`${base}/v1/instances/:name`, ({ params }) => {
      const instance = model.instances.get(String(params.name));
      return instance ? HttpResponse.json(instance) : notFound(`instance ${params.name}`);
    }),
    http.get(`${base}/v1/routes`, ({ request }) => {
      const cluster = new URL(request.url).searchParams.get('cluster');
      return HttpResponse.json({ items: [...model.routes.values()].filter((r) => cluster === null || r.cluster === cluster) });
    }),
    http.put(`${base}/v1/routes/:name`, async ({ params, request }) => {
      const body = (await request.json()) as any;
      if (typeof body?.destinationCIDR !== 'string' || typeof body?.targetNode !== 'string') return HttpResponse.json({ error: 'destinationCIDR and targetNode are required' }, { status: 400 });
      const route = { name: String(params.name), cluster: String(body.cluster ?? ''), destinationCIDR: body.destinationCIDR, targetNode: body.targetNode };
      model.putRoute(route);
      return HttpResponse.json(route);
    }),
    http.delete(`${base}/v1/routes/:name`, ({ params }) => (model.deleteRoute(String(params.name)) ? HttpResponse.json({}) : notFound(`route ${params.name}`))),
    http.get(`${base}/v1/loadbalancers/:name`, ({ params }) => {
      const lb = model.loadBalancers.get(String(params.name));
      return lb ? HttpResponse.json(lb) : notFound(`load balancer ${params.name}`);
    }),
    http.put(`${base}/v1/loadbalancers/:name`, async ({ params, request }) => {
      const body = (await request.json()) as any;
      if (!Array.isArray(body?.ports) || !Array.isArray(body?.nodes)) return HttpResponse.json({ error: 'ports and nodes are required' }, { status: 400 });
      const lb = model.putLoadBalancer({ name: String(params.name), cluster: String(body.cluster ?? ''), service: String(body.service ?? ''), ports: body.ports as LoadBalancerPort[], nodes: body.nodes as string[] });
      return HttpResponse.json(lb);
    }),
    http.delete(`${base}/v1/loadbalancers/:name`, ({ params }) => (model.deleteLoadBalancer(String(params.name)) ? HttpResponse.json({}) : notFound(`load balancer ${params.name}`))),
  ];
}

/** A fetch answered by the model's handlers (msw's getResponse); a request they do not match gets 404. */
export function cloudFetch(model: CloudModel, base: string): typeof fetch {
  let handlers: RequestHandler[] | undefined;
  return async (input, init) => {
    const request = new Request(input, init);
    const lib = await loadMsw();
    handlers ??= cloudApiHandlers(lib, model, base);
    return (await lib.getResponse(handlers, request)) ?? new Response(JSON.stringify({ error: `no such cloud API: ${request.method} ${request.url}` }), { status: 404 });
  };
}
