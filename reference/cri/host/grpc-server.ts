/**
 * Serves a CriRuntime (the fake runtime) as a CRI v1 gRPC server on a unix socket: the
 * runtime.v1.RuntimeService and runtime.v1.ImageService of ../runtime-v1.proto
 * (upstream's field numbers), each method handed to the runtime method of the same name. So a
 * kubelet — or crictl — reaches the fake runtime the way it reaches containerd: over the socket.
 * A CriError becomes the gRPC status it carries; a method the runtime lacks is UNIMPLEMENTED.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as grpc from '@grpc/grpc-js';
import { grpcLib, protoLoaderLib } from '../../grpc-lib.ts';
import { CriError, type CriRuntime } from '../../../contract/cri.ts';
import { LOAD_OPTIONS, PROTO_PATH } from '../proto.ts';

export interface CriServer {
  /** unix:///…/cri.sock */
  readonly endpoint: string;
  close(): Promise<void>;
}

function lowerFirst(s: string): string {
  return s[0]!.toLowerCase() + s.slice(1);
}

function status(error: unknown): Partial<grpc.StatusObject> {
  if (error instanceof CriError) return { code: error.code, details: error.message };
  return { code: grpcLib().status.UNKNOWN, details: (error as Error)?.message ?? String(error) };
}

export async function serveCri(runtime: CriRuntime): Promise<CriServer> {
  const lib = grpcLib();
  const pkg = lib.loadPackageDefinition(protoLoaderLib().loadSync(PROTO_PATH, LOAD_OPTIONS));
  const v1 = (pkg.runtime as grpc.GrpcObject).v1 as grpc.GrpcObject;
  const server = new lib.Server();
  for (const name of ['RuntimeService', 'ImageService']) {
    const service = (v1[name] as grpc.ServiceClientConstructor).service;
    const impl: grpc.UntypedServiceImplementation = {};
    for (const [method, def] of Object.entries(service)) {
      const fn = (runtime as unknown as Record<string, unknown>)[lowerFirst(method)];
      if (typeof fn !== 'function') continue;
      if (def.responseStream) {
        impl[method] = (call: grpc.ServerWritableStream<unknown, unknown>) => {
          const sub = (fn as CriRuntime['getContainerEvents'])!.call(runtime, (e) => call.write(e), (e) => call.destroy(Object.assign(new Error(e.message), status(e))));
          call.on('cancelled', () => sub.cancel());
          call.on('close', () => sub.cancel());
        };
        continue;
      }
      impl[method] = (call: grpc.ServerUnaryCall<unknown, unknown>, done: grpc.sendUnaryData<unknown>) => {
        Promise.resolve((fn as (req: unknown) => Promise<unknown>).call(runtime, call.request)).then(
          (res: any) => done(null, method === 'ExecSync' ? { ...res, stdout: Buffer.from(res.stdout ?? ''), stderr: Buffer.from(res.stderr ?? '') } : res),
          (error) => done(status(error)),
        );
      };
    }
    server.addService(service, impl);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-fake-cri-'));
  const endpoint = `unix://${path.join(dir, 'cri.sock')}`;
  await new Promise<void>((resolve, reject) => server.bindAsync(endpoint, lib.ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())));
  return {
    endpoint,
    async close() {
      await new Promise<void>((done) => server.tryShutdown(() => done()));
      server.forceShutdown();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
