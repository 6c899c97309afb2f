/**
 * A kubeconfig (clientcmd v1 Config) with everything embedded as base64 *-data fields, so the
 * file stands alone: one cluster, one user (client certificate and/or bearer token), one
 * context, made current. Format: k8s.io/client-go/tools/clientcmd/api/v1/types.go; the same file
 * is read by kubectl and by @kubernetes/client-node's KubeConfig.loadFromFile.
 */
import { stringify } from 'yaml';

export interface KubeconfigInput {
  /** https://127.0.0.1:PORT */
  server: string;
  caPem: string;
  /** The user entry's name (also used for the context name). */
  user: string;
  clientCertPem?: string;
  clientKeyPem?: string;
  /** A bearer token, e.g. a ServiceAccount token or a static token-file entry. */
  token?: string;
  clusterName?: string;
  namespace?: string;
}

export function renderKubeconfig(input: KubeconfigInput): string {
  const cluster = input.clusterName ?? 'kubespec';
  const context = `${input.user}@${cluster}`;
  const b64 = (pem: string) => Buffer.from(pem).toString('base64');
  const user: Record<string, string> = {};
  if (input.clientCertPem) user['client-certificate-data'] = b64(input.clientCertPem);
  if (input.clientKeyPem) user['client-key-data'] = b64(input.clientKeyPem);
  if (input.token) user['token'] = input.token;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster, cluster: { server: input.server, 'certificate-authority-data': b64(input.caPem) } }],
    users: [{ name: input.user, user }],
    contexts: [{ name: context, context: { cluster, user: input.user, ...(input.namespace ? { namespace: input.namespace } : {}) } }],
    'current-context': context,
    preferences: {},
  });
}
