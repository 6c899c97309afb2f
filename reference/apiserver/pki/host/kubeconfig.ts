/** Writing a kubeconfig file (mode 0600: it holds a private key or a token). */
import { writeFile } from 'node:fs/promises';
import { renderKubeconfig, type KubeconfigInput } from '../kubeconfig.ts';

export async function writeKubeconfig(opts: KubeconfigInput & { path: string }): Promise<string> {
  const { path, ...input } = opts;
  await writeFile(path, renderKubeconfig(input), { mode: 0o600 });
  return path;
}
