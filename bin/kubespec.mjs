#!/usr/bin/env node
// The `kubespec` command. The project is TypeScript run through tsx; registering its loader
// here lets `npx kubespec` work right after `npm ci`, with no build step.
import { register } from 'tsx/esm/api';

register();
// Paths (features/, reports/) are relative to the project, wherever the command is run from;
// paths a person passes (--kubeconfig, --data-dir) stay relative to where they ran it.
process.env.KUBESPEC_CWD ??= process.cwd();
process.chdir(new URL('..', import.meta.url).pathname);
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
