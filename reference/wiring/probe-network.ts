/**
 * How the kubelet's probes reach containers: a real HTTP client (`fetch`, redirects not
 * followed — the prober decides) and a real TCP connect. The fake runtime's pods are answered
 * in-process by msw handlers on the same `fetch` (kubelet-network.ts); a real runtime's pods by
 * the processes in them, at their pod IPs.
 */
import net from 'node:net';
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
  };
}
