/**
 * An L4 (TCP) load balancer in front of several API servers, as HAProxy in TCP mode does in
 * kubeadm's HA guide: each new connection goes to the next backend, round robin; a backend
 * that refuses the connection is skipped for that connection (a passive health check). Bytes
 * are relayed untouched, so TLS and client certificates reach the API server itself, and
 * long-lived watches stay on the backend they started on until it goes away.
 */
import net from 'node:net';

export interface Backend {
  host: string;
  port: number;
}

export class TcpBalancer {
  private next = 0;
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
    private readonly backends: () => readonly Backend[],
  ) {}

  static async open(backends: () => readonly Backend[], port = 0, host = '127.0.0.1'): Promise<TcpBalancer> {
    let balancer: TcpBalancer | undefined;
    const server = net.createServer((client) => balancer!.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    balancer = new TcpBalancer(server, (server.address() as net.AddressInfo).port, backends);
    return balancer;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    this.track(client);
    client.pause();
    this.connect(client, this.backends().length);
  }

  /** Try backends in turn until one accepts; `left` bounds the tries. */
  private connect(client: net.Socket, left: number): void {
    const list = this.backends();
    if (left <= 0 || list.length === 0) {
      client.destroy();
      return;
    }
    const target = list[this.next++ % list.length]!;
    const upstream = net.connect(target.port, target.host);
    const refused = () => {
      upstream.destroy();
      this.connect(client, left - 1);
    };
    upstream.once('error', refused);
    upstream.once('connect', () => {
      upstream.off('error', refused);
      this.track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      const drop = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }
}
