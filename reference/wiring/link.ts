/**
 * The network between one control-plane process and the API server, as a loopback TCP relay the
 * process connects through. It lets the HA wiring do to a process's connection what a real
 * network does: `cut()` drops every connection and refuses new ones (a partition between the
 * process and the API server, or its machine gone); `hold()` stops moving bytes both ways
 * without closing anything (the process is frozen: a stopped process reads no socket), and
 * `release()` moves them again. An L4 relay, so TLS and streaming watches pass untouched.
 */
import net from 'node:net';

export class Link {
  private readonly sockets = new Set<{ client: net.Socket; upstream: net.Socket }>();
  private cutOff = false;
  private held = false;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  /** Relay 127.0.0.1:<port> to `target` (host:port). */
  static async open(target: { host: string; port: number }): Promise<Link> {
    let link: Link | undefined;
    const server = net.createServer((client) => link!.accept(client, target));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    link = new Link(server, (server.address() as net.AddressInfo).port);
    return link;
  }

  get cut_(): boolean {
    return this.cutOff;
  }

  cut(): void {
    this.cutOff = true;
    for (const pair of this.sockets) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    this.sockets.clear();
  }

  heal(): void {
    this.cutOff = false;
  }

  hold(): void {
    this.held = true;
    for (const pair of this.sockets) {
      pair.client.pause();
      pair.upstream.pause();
    }
  }

  release(): void {
    this.held = false;
    for (const pair of this.sockets) {
      pair.client.resume();
      pair.upstream.resume();
    }
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket, target: { host: string; port: number }): void {
    if (this.cutOff) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    this.sockets.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    if (this.held) {
      client.pause();
      upstream.pause();
    }
    const drop = () => {
      this.sockets.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  }
}
