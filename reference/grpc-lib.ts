/**
 * @grpc/grpc-js and @grpc/proto-loader, required on first use: importing them costs some 140 ms,
 * which every cucumber process paid at start though few scenarios speak gRPC — the suite's
 * bundle hoists a module's imports of packages to its top, however lazily the module is reached.
 * Types come from `import type`, which costs nothing at run time.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const grpcLib = (): typeof import('@grpc/grpc-js') => require('@grpc/grpc-js');
export const protoLoaderLib = (): typeof import('@grpc/proto-loader') => require('@grpc/proto-loader');
