/**
 * Where CRI v1's wire definition lives (./runtime-v1.proto: the runtime.v1 messages used here,
 * with upstream's field numbers) and how it is loaded, shared by the gRPC client (adapters/cri/)
 * and the gRPC server in front of the fake runtime (host/grpc-server.ts), so both read the
 * messages as api.ts writes them: lowerCamelCase fields (the JSON mapping), enums by name,
 * int64 as numbers (nanoseconds fit to the millisecond).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Options } from '@grpc/proto-loader';

// Found from the package root (Node's self-reference to the package's own name), not from this
// module's URL: the suite's steps run bundled (cli/cucumber-bundle.ts), where that URL is the bundle's.
export const PROTO_PATH = path.join(path.dirname(createRequire(import.meta.url).resolve('kubespec/package.json')), 'reference', 'cri', 'runtime-v1.proto');

export const LOAD_OPTIONS: Options = { keepCase: false, longs: Number, enums: String, defaults: true, arrays: true, objects: false };
