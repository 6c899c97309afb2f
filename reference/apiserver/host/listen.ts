/**
 * Serves the API server's handler on a port: plain HTTP, or HTTPS asking for (but not
 * requiring) a client certificate — kube-apiserver's stance, so that certificate users and
 * token users share a port; the handler passes a CA-verified certificate to authentication.
 * The HTTPS port offers HTTP/2 by ALPN ("h2") and HTTP/1.1 beside it, as kube-apiserver's
 * secure port does (staging/src/k8s.io/apiserver/pkg/server/secure_serving.go configures
 * http2 on its TLS server; clients that do not ask for h2 get HTTP/1.1).
 * Also the real timers the core's watches use for timeouts and bookmarks.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createSecureServer as createHttp2SecureServer } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import type { Timers } from '../types.ts';
import type { TLSSocket } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { CHAIN_VERIFIED_OUT_OF_DATE } from '../authn/x509.ts';

export interface TlsOptions {
  cert: string | Buffer;
  key: string | Buffer;
  /** CA that signs client certificates; without it no client certificate verifies. */
  ca?: string | Buffer;
}

export interface ListenOptions {
  /** 0 (default): any free port. */
  port?: number;
  host?: string;
  tls?: TlsOptions;
}

export interface Listening {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * How long an idle keep-alive connection stays open: kube-apiserver's IdleTimeout, "matches
 * http.DefaultTransport keep-alive timeout" (staging/src/k8s.io/apiserver/pkg/server/secure_serving.go,
 * Serve), rather than Node's 5 s. Node announces it (`Keep-Alive: timeout=90`), and this
 * process's clients close their side first (reference/wiring/keep-alive.ts).
 */
export const IDLE_TIMEOUT_MS = 90_000;

export function listen(handler: (req: IncomingMessage, res: ServerResponse) => void, opts: ListenOptions = {}): Promise<Listening> {
  const host = opts.host ?? '127.0.0.1';
  // The HTTP/2 compatibility API hands the same handler request and response objects with the
  // http module's shape; allowHTTP1 serves HTTP/1.1 clients on the same port.
  const server = (opts.tls
    ? createHttp2SecureServer({ cert: opts.tls.cert, key: opts.tls.key, ca: opts.tls.ca, requestCert: true, rejectUnauthorized: false, allowHTTP1: true }, handler as never)
    : createHttpServer({ keepAliveTimeout: IDLE_TIMEOUT_MS }, handler)) as unknown as Server;
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('secureConnection', (s: Socket) => {
    if (opts.tls?.ca) markOutOfDateButSigned(s as TLSSocket, opts.tls.ca);
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      const scheme = opts.tls ? 'https' : 'http';
      const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
      resolve({
        url,
        port,
        server,
        close: () =>
          new Promise<void>((done) => {
            // Open watches would keep close() waiting for ever: end their connections.
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** TLS verdicts that are about the certificate's dates only, at the wall clock. */
const DATE_ERRORS = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/**
 * A client certificate the TLS layer refused only for its dates, at the wall clock, is passed on
 * when the CA's signature on it verifies: the x509 authenticator judges its dates at the server's
 * own clock (virtual on the reference target), as upstream's verifies at the server's time.
 */
function markOutOfDateButSigned(socket: TLSSocket, caPem: string | Buffer): void {
  if (socket.authorized || !DATE_ERRORS.has(String(socket.authorizationError))) return;
  const peer = socket.getPeerX509Certificate?.();
  if (!peer) return;
  const ca = new X509Certificate(caPem);
  if (peer.checkIssued(ca) && peer.verify(ca.publicKey)) (socket as unknown as Record<symbol, unknown>)[CHAIN_VERIFIED_OUT_OF_DATE] = true;
}

/** Timers over the host's clock, for createApiServer({ timers }). */
export const realTimers: Timers = {
  after(ms, fn) {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return () => clearTimeout(t);
  },
};
