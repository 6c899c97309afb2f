/**
 * A gRPC health server (grpc.health.v1.Health/Check) over Node's own HTTP/2, for the fake
 * runtime's `kubespec/grpc-health:STATUS` containers: a real server on the sandbox's IP that the
 * kubelet's real gRPC client dials (reference/wiring/kubelet-network.ts). No gRPC library: a
 * gRPC message on the wire is a 5-byte prefix (compressed flag, big-endian length) and the
 * protobuf bytes (grpc/grpc doc/PROTOCOL-HTTP2.md), the status goes in the `grpc-status`
 * trailer, and the messages are tiny (grpc/grpc-proto grpc/health/v1/health.proto):
 * HealthCheckRequest { string service = 1; }, HealthCheckResponse { ServingStatus status = 1; }
 * with UNKNOWN 0, SERVING 1, NOT_SERVING 2, SERVICE_UNKNOWN 3 — so SERVING is the bytes 08 01.
 * The container image of the cri target runs the same protocol (adapters/cri/host/images.ts).
 */
import http2 from 'node:http2';

export const SERVING_STATUS: Record<string, number> = { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 };
export const HEALTH_CHECK_PATH = '/grpc.health.v1.Health/Check';
const GRPC_OK = 0;
const GRPC_NOT_FOUND = 5;
const GRPC_UNIMPLEMENTED = 12;

/** A length-prefixed gRPC message (uncompressed). */
export function grpcFrame(message: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
}

/** The `service` field of a HealthCheckRequest (field 1, length-delimited), '' when absent. */
export function healthRequestService(body: Buffer): string {
  const message = body.subarray(5);
  let i = 0;
  while (i < message.length) {
    const key = message[i++]!;
    let len = 0;
    for (let shift = 0; i < message.length; shift += 7) {
      const b = message[i++]!;
      len |= (b & 0x7f) << shift;
      if (b < 0x80) break;
    }
    if (key === 0x0a) return message.subarray(i, i + len).toString('utf8');
    if ((key & 7) === 2) i += len;
  }
  return '';
}

/**
 * An h2c server answering Health/Check with what `statusOf(service)` says (a status name of
 * SERVING_STATUS); undefined: the service is unknown (NOT_FOUND, as health.proto prescribes).
 * Any other method is UNIMPLEMENTED.
 */
export function healthServer(statusOf: (service: string) => string | undefined): http2.Http2Server {
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const trailers = (code: number, message?: string) => ({ 'grpc-status': String(code), ...(message ? { 'grpc-message': encodeURIComponent(message) } : {}) });
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      let code = GRPC_OK;
      let message: string | undefined;
      let body: Buffer | undefined;
      if (headers[':path'] !== HEALTH_CHECK_PATH) {
        code = GRPC_UNIMPLEMENTED;
        message = `unknown method ${headers[':path']}`;
      } else {
        const status = statusOf(healthRequestService(Buffer.concat(chunks)));
        if (status === undefined) {
          code = GRPC_NOT_FOUND;
          message = 'unknown service';
        } else body = grpcFrame(Buffer.from([0x08, SERVING_STATUS[status] ?? 0]));
      }
      stream.on('wantTrailers', () => stream.sendTrailers(trailers(code, message)));
      stream.end(body);
    });
    stream.on('error', () => {});
  });
  server.on('sessionError', () => {});
  return server;
}
