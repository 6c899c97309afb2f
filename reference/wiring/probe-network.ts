/**
 * How the kubelet's probes reach containers: a real HTTP client (`fetch`, redirects not
 * followed — the prober decides) and a real TCP connect. The fake runtime's pods are answered
 * in-process by msw handlers on the same `fetch` (kubelet-network.ts); a real runtime's pods by
 * the processes in them, at their pod IPs.
 */
import net from 'node:net';
import { grpcLib } from '../grpc-lib.ts';
import type { ProbeNetwork } from '../kubelet/types.ts';

export function realProbeNetwork(): ProbeNetwork {
  return {
    async httpGet(url, headers, onAbort) {
      const controller = new AbortController();
      onAbort(() => controller.abort());
      const res = await fetch(url, { headers, redirect: 'manual', signal: controller.signal });
      await res.arrayBuffer().catch(() => undefined);
      const location = res.headers.get('location');
      return { status: res.status, ...(location ? { location } : {}) };
    },
    tcpConnect(host, port, onAbort) {
      return new Promise<void>((resolve, reject) => {
        const socket = net.connect({ host, port });
        onAbort(() => socket.destroy(new Error('i/o timeout')));
        socket.once('connect', () => {
          socket.destroy();
          resolve();
        });
        socket.once('error', (e: NodeJS.ErrnoException) => reject(new Error(e.code === 'ECONNREFUSED' ? 'connect: connection refused' : e.message)));
      });
    },
    grpcHealthCheck(host, port, service, onAbort) {
      // A generic client with hand-written codecs: HealthCheckRequest is field 1 (service, a
      // string), HealthCheckResponse field 1 (status, a varint) — grpc/grpc-proto health.proto.
      // A channel of its own rather than grpc-js's process-wide subchannel pool: closing it ends
      // its connection, which would otherwise outlive the probe (and the pod) in the pool.
      const grpc = grpcLib();
      const client = new grpc.Client(`${host}:${port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
      return new Promise((resolve) => {
        const call = client.makeUnaryRequest<string, number>(
          '/grpc.health.v1.Health/Check',
          (s) => (s ? Buffer.concat([Buffer.from([0x0a, Buffer.byteLength(s)]), Buffer.from(s)]) : Buffer.alloc(0)),
          (bytes) => (bytes[0] === 0x08 ? bytes[1]! : 0),
          service,
          (error, status) => {
            client.close();
            resolve(error ? { error: { code: error.code ?? grpc.status.UNKNOWN, details: error.details ?? error.message } } : { status: status ?? 0 });
          },
        );
        onAbort(() => call.cancel());
      });
    },
  };
}
