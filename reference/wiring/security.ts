/**
 * The security stages wired to the reference store: authenticators (client certificates, a
 * static token file, ServiceAccount tokens, optionally anonymous), RBAC reading Roles and
 * bindings straight from the store, and the admission chain with dynamic webhooks.
 *
 * The listers read through a cache of decoded objects that a store-wide watch keeps exact
 * (cached-reader.ts): a binding just created still takes effect on the next request, but a
 * request no longer re-reads and re-parses every Role, binding and webhook configuration.
 */
import type { Faults } from '../faults.ts';
import { webhookTokenAuthenticator, type WebhookTokenAuthenticator } from '../apiserver/authn/webhook-token.ts';
import { oidcAuthenticator, type OidcAuthenticator, type OidcOptions } from '../apiserver/authn/oidc.ts';
import { httpOidcFetch } from '../apiserver/authn/host/oidc-fetch.ts';
import type { Backend } from '../store/backend.ts';
import type { ApiServerOptions } from '../apiserver/server.ts';
import { uuidFrom } from '../apiserver/server.ts';
import { parseTokenFile, serviceAccountTokens, tokenFileAuthenticator, x509Authenticator } from '../apiserver/authn/index.ts';
import type { SigningKey } from '../apiserver/authn/jwt.ts';
import { rbacAuthorizer, ruleResolver } from '../apiserver/authz/index.ts';
import { nodeAuthorizer, unionAuthorizer } from '../apiserver/authz/node.ts';
import { admissionChain, randomSuffix } from '../apiserver/admission/index.ts';
import { httpWebhookCaller } from '../apiserver/admission/host/webhookclient.ts';
import type { Authenticator, UserInfo } from '../apiserver/pipeline.ts';
import type { Clock } from './virtual-clock.ts';
import { CachedStoreReader } from './cached-reader.ts';

export interface SecurityOptions {
  backend: Backend;
  clock: Clock;
  random: () => number;
  /** CSV in kube-apiserver's --token-auth-file format. */
  tokenCsv?: string;
  /**
   * Tokens read at each request, on top of the token file: the cluster adds a kubelet's here
   * when it starts one (kube-apiserver would need a restart to re-read its token file).
   */
  liveTokens?: Map<string, UserInfo>;
  anonymous?: boolean;
  /**
   * Resolve aggregationRules at request time instead of reading the rules stored in aggregated
   * ClusterRoles (default false: the clusterrole-aggregation controller writes them). Only for a
   * harness that runs no controller manager.
   */
  resolveAggregation?: boolean;
  issuer?: string;
  /**
   * Signs ServiceAccount tokens. Default: an HS256 secret drawn from `random`, so a scenario's
   * tokens replay exactly and no session pays ~0.4 s for an RSA key; `serve` passes an RS256 key.
   */
  signingKey?: SigningKey;
  /** Fault models to inject (reference/faults.ts); default none. */
  faults?: Faults;
  /** kube-apiserver's --oidc-* flags: ID tokens of this issuer authenticate (authn/oidc.ts). */
  oidc?: OidcOptions;
}

export interface Security {
  options: Pick<ApiServerOptions, 'authenticators' | 'authorizer' | 'ruleResolver' | 'serviceAccountTokens' | 'mutating' | 'validating' | 'anonymous' | 'conversionWebhook'>;
  /** Mint a token for a ServiceAccount (as the TokenRequest API or the kubelet would). */
  mintServiceAccountToken(namespace: string, name: string): Promise<string>;
  /** Webhook token authentication, off until configured (--authentication-token-webhook-config-file). */
  tokenWebhook: WebhookTokenAuthenticator;
  /** OIDC token authentication, off unless --oidc-issuer-url or configure() set it. */
  oidc: OidcAuthenticator;
}

export function referenceSecurity(opts: SecurityOptions): Security {
  const read = new CachedStoreReader(opts.backend);
  const tokens = serviceAccountTokens({
    issuer: opts.issuer ?? 'https://kubernetes.default.svc.cluster.local',
    key: opts.signingKey ?? seededHs256Key(opts.random),
    clock: opts.clock,
    getServiceAccount: (ns, name) => read.one('serviceaccounts', ns, name),
    getPod: (ns, name) => read.one('pods', ns, name),
  });
  // Before the token file: its "rejected" for an unknown token would end the union first.
  const tokenWebhook = webhookTokenAuthenticator(httpWebhookCaller());
  // Upstream's order of token authenticators (pkg/kubeapiserver/authenticator/config.go):
  // ServiceAccount tokens, then OIDC, then the webhook; the union tries them all.
  const oidc = oidcAuthenticator({ now_ms: () => opts.clock.now_ms(), fetch: httpOidcFetch() });
  oidc.configure(opts.oidc);
  const authenticators: Authenticator[] = [x509Authenticator(opts.faults, () => opts.clock.now_ms()), tokens.authenticator, oidc, tokenWebhook];
  if (opts.tokenCsv || opts.liveTokens) {
    const tokens = opts.liveTokens ?? new Map<string, UserInfo>();
    for (const [token, user] of opts.tokenCsv ? parseTokenFile(opts.tokenCsv) : []) tokens.set(token, user);
    authenticators.push(tokenFileAuthenticator({ tokens }));
  }
  const rbacLister = {
    roles: (ns: string) => read.all('roles', ns),
    clusterRoles: () => read.all('clusterroles', ''),
    roleBindings: (ns: string) => read.all('rolebindings', ns),
    clusterRoleBindings: () => read.all('clusterrolebindings', ''),
  };
  const chain = admissionChain({
    ...(opts.faults ? { faults: opts.faults } : {}),
    getNamespace: (name) => read.one('namespaces', '', name),
    getServiceAccount: (ns, name) => read.one('serviceaccounts', ns, name),
    listPods: async (ns) => [...(await read.all('pods', ns))],
    resourceQuota: { listQuotas: (ns) => read.all('resourcequotas', ns), countObjects: async (resource, ns) => (await read.all(resource, ns)).length, listPods: (ns) => read.all('pods', ns) },
    volumeNameSuffix: () => randomSuffix(opts.random),
    priorityClasses: { getPriorityClass: (name) => read.one('priorityclasses', '', name), listPriorityClasses: () => read.all('priorityclasses', '') },
    webhooks: {
      lister: {
        mutatingWebhookConfigurations: () => read.all('mutatingwebhookconfigurations', ''),
        validatingWebhookConfigurations: () => read.all('validatingwebhookconfigurations', ''),
        namespaceLabels: async (ns) => (await read.one('namespaces', '', ns))?.metadata?.labels ?? {},
      },
      call: httpWebhookCaller(),
      newUid: uuidFrom(opts.random),
    },
  });
  return {
    tokenWebhook,
    oidc,
    options: {
      authenticators,
      anonymous: opts.anonymous,
      // --authorization-mode=Node,RBAC: the Node authorizer speaks for kubelets only.
      // Aggregated ClusterRoles count with the rules stored in them, as upstream's authorizer reads
      // them: the clusterrole-aggregation controller writes those rules, nothing resolves them here.
      authorizer: unionAuthorizer(nodeAuthorizer(), rbacAuthorizer({ lister: rbacLister, resolveAggregation: opts.resolveAggregation ?? false, ...(opts.faults ? { faults: opts.faults } : {}) })),
      ruleResolver: ruleResolver({ lister: rbacLister, resolveAggregation: opts.resolveAggregation ?? false }),
      serviceAccountTokens: { mint: (req) => tokens.mintToken(req) },
      mutating: chain.mutating,
      validating: chain.validating,
      // CRD conversion webhooks go over the same HTTP(S) client as admission webhooks.
      conversionWebhook: httpWebhookCaller(),
    },
    async mintServiceAccountToken(namespace, name) {
      const sa = await read.one('serviceaccounts', namespace, name);
      if (!sa) throw new Error(`no ServiceAccount ${namespace}/${name}`);
      return (await tokens.mintToken({ namespace, name, uid: sa.metadata.uid })).token;
    },
  };
}

function seededHs256Key(random: () => number): SigningKey {
  return { alg: 'HS256', secret: Buffer.from(Array.from({ length: 32 }, () => Math.floor(random() * 256))) };
}
