/**
 * The network the fake runtime's pods live on, for real clients: every sandbox gets an address
 * in 127.0.0.0/8 (all of it is loopback on Linux), so the kubelet's probes dial real addresses.
 * - TCP: a container that listens gets a real listening socket on its sandbox IP and port,
 *   which accepts and closes (what `kubespec/tcp` does; an HTTP port accepts too).
 * - gRPC health (`kubespec/grpc-health`): a real HTTP/2 gRPC server on the sandbox IP and port for
 *   clients from outside; the kubelet's own probes are answered in process, as HTTP's are.
 * - HTTP: the containers' HTTP endpoints are served by msw handlers on the fetch interceptor —
 *   requests to a sandbox IP are answered from the runtime's state, in process, never touching
 *   the socket; every other request passes through untouched. Only `fetch` is intercepted, so
 *   the API clients (node:http) are not affected.
 */
import net from 'node:net';
import { healthServer, SERVING_STATUS } from '../cri/host/grpc-health.ts';
import type { FakeRuntime } from '../cri/fake/runtime.ts';
import type { ProbeNetwork } from '../kubelet/types.ts';
import { realProbeNetwork } from './probe-network.ts';
import type { Scheduler } from './virtual-clock.ts';

interface Registered {
  runtime: FakeRuntime;
  clock: Scheduler;
}

/** Sandbox IP prefix → runtime; one process-wide msw server serves them all. */
const byPrefix = new Map<string, Registered>();
let interceptor: Promise<void> | undefined;
let nextSlot = 0;

/**
 * Installs the msw server that answers the containers' HTTP endpoints, once per process. msw is
 * loaded on first use, not at import: it is about 20 MiB of resident memory, and an idle
 * `kubespec serve` runs no container that serves HTTP (issue 4's goal: idle serve ≤ 150 MiB).
 * A virtual-time harness awaits it up front (ReferenceCluster.start), so a probe's first request
 * never waits on real time; on real time the first HTTP probe awaits it (a one-off delay).
 */
export function loadHttpInterceptor(): Promise<void> {
  return (interceptor ??= installInterceptor());
}

async function installInterceptor(): Promise<void> {
  const { http, HttpResponse, passthrough } = await import('msw');
  // msw/native assembles msw's server from the fetch (and XMLHttpRequest) interceptors only —
  // unlike msw/node, it leaves node:http alone, which every API client here uses.
  const { setupServer } = await import('msw/native');
  const server = setupServer(
    http.get(/^http:\/\/127\.\d+\.\d+\.\d+(:\d+)?\//, async ({ request }) => {
      const url = new URL(request.url);
      const owner = byPrefix.get(prefixOf(url.hostname));
      if (!owner) return passthrough();
      const answer = owner.runtime.httpAnswer(url.hostname, Number(url.port || 80), url.pathname);
      if (!answer) return HttpResponse.error();
      if (answer.delay_s) await new Promise<void>((done) => owner.clock.after(answer.delay_s! * 1000, done));
      return new HttpResponse(null, { status: answer.status, headers: answer.location ? { location: answer.location } : {} });
    }),
  );
  server.listen({ onUnhandledRequest: 'bypass' });
}

/** The real probe network, with HTTP probes sent once the interceptor is in place. */
function probeNetwork(): ProbeNetwork {
  const real = realProbeNetwork();
  return {
    httpGet: async (url, headers, onAbort) => {
      await loadHttpInterceptor();
      return real.httpGet(url, headers, onAbort);
    },
    tcpConnect: (host, port, onAbort) => real.tcpConnect(host, port, onAbort),
    // A fake runtime's gRPC health container is answered in process from the runtime's state, as
    // msw answers its HTTP endpoints (a real gRPC round trip takes more event-loop turns than
    // virtual time waits between steps); any other address goes out through the real client.
    grpcHealthCheck: async (host, port, service, onAbort) => {
      const owner = byPrefix.get(prefixOf(host));
      if (!owner) return real.grpcHealthCheck!(host, port, service, onAbort);
      const status = owner.runtime.grpcHealth(host, port);
      if (status !== undefined) return { status: SERVING_STATUS[status] ?? 0 };
      if (owner.runtime.listens(host, port)) return { error: { code: 12, details: 'unknown service grpc.health.v1.Health' } };
      return { error: { code: 14, details: `No connection established. Last error: Error: connect ECONNREFUSED ${host}:${port}` } };
    },
  };
}

function prefixOf(ip: string): string {
  return ip.split('.').slice(0, 3).join('.');
}

export interface NodeNetwork {
  /** The n-th sandbox's IP on this node. */
  sandboxIp(n: number): string;
  /** Real TCP listeners follow the containers. */
  onListen(ip: string, port: number, listening: boolean): void;
  attach(runtime: FakeRuntime, clock: Scheduler): void;
  probes: ProbeNetwork;
  close(): Promise<void>;
}

/** A network for one node: a /24 of loopback of its own (127.<A>.<slot>.0/24). */
export function nodeNetwork(): NodeNetwork {
  const a = 64 + (process.pid % 128);
  const slot = nextSlot++ % 256;
  const prefix = `127.${a}.${slot}`;
  const listeners = new Map<string, net.Server>();
  let owner: Registered | undefined;
  return {
    sandboxIp: (n) => `${prefix}.${((n - 1) % 254) + 1}`,
    attach(runtime, clock) {
      owner = { runtime, clock };
      byPrefix.set(prefix, owner);
    },
    onListen(ip, port, listening) {
      const key = `${ip}:${port}`;
      if (!listening) {
        listeners.get(key)?.close();
        listeners.delete(key);
        return;
      }
      if (listeners.has(key)) return;
      // A container serves: its HTTP answers need the interceptor (loaded once, in the background).
      void loadHttpInterceptor();
      // A gRPC health container gets a real HTTP/2 server answering from the runtime's state;
      // anything else a socket that accepts and closes.
      const srv = owner?.runtime.grpcHealth(ip, port) ? healthServer(() => owner!.runtime.grpcHealth(ip, port)) : net.createServer((socket) => socket.destroy());
      srv.on('error', () => listeners.delete(key));
      srv.listen(port, ip);
      srv.unref();
      listeners.set(key, srv);
    },
    probes: probeNetwork(),
    async close() {
      if (byPrefix.get(prefix)) byPrefix.delete(prefix);
      await Promise.all([...listeners.values()].map((s) => new Promise<void>((done) => s.close(() => done()))));
      listeners.clear();
    },
  };
}
