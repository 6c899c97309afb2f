/** admissionregistration.k8s.io/v1 webhook configurations as plain JSON, and the transport the dispatcher uses. */
import type { LabelSelector } from '../../authz/labels.ts';

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  /** "Cluster", "Namespaced" or "*" (the default). */
  scope?: string;
}

export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** Base64 PEM bundle to trust for the webhook's serving certificate. */
  caBundle?: string;
}

export interface Webhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  /** "Fail" (the v1 default) or "Ignore". */
  failurePolicy?: string;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: string;
  /** Default 10 (admissionregistration/v1). */
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: string;
}

export interface WebhookConfiguration {
  metadata: { name: string };
  webhooks?: Webhook[];
}

type MaybePromise<T> = T | Promise<T>;

export interface WebhookConfigurationLister {
  mutatingWebhookConfigurations(): MaybePromise<WebhookConfiguration[]>;
  validatingWebhookConfigurations(): MaybePromise<WebhookConfiguration[]>;
  /** The labels of a Namespace, or undefined when it does not exist (namespaceSelector needs them). */
  namespaceLabels(namespace: string): MaybePromise<Record<string, string> | undefined>;
}

/** One HTTP POST of an AdmissionReview. The host implementation is admission/host/webhookclient.ts. */
export interface WebhookCall {
  /** The webhook URL with upstream's `?timeout=Ns` query parameter added. */
  url: string;
  caBundlePem?: string;
  timeout_ms: number;
  body: string;
}

export interface WebhookHttpResponse {
  status: number;
  body: string;
}

/** Resolves with the HTTP answer; rejects (with a Go-like message) on transport failure or timeout. */
export type WebhookCaller = (call: WebhookCall) => Promise<WebhookHttpResponse>;
