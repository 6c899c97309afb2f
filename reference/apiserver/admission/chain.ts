/**
 * The admission chain in upstream's order (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins):
 * NamespaceLifecycle, ServiceAccount, NodeRestriction, PodSecurity, Priority, DefaultTolerationSeconds, [DenyServiceExternalIPs],
 * MutatingAdmissionWebhook, ValidatingAdmissionWebhook, ResourceQuota. PodSecurity (validating only) and
 * DefaultTolerationSeconds (mutating only) are on by default upstream. The mutating phase runs every plugin's Admit in that order, then the
 * validating phase every plugin's Validate (staging/src/k8s.io/apiserver/pkg/admission/chain.go).
 * Defaults come first: upstream applies them while decoding, before any admission plugin.
 * DenyServiceExternalIPs is off by default upstream (DefaultOffAdmissionPlugins), so it is opt-in.
 */
import type { Faults } from '../../faults.ts';
import type { MutatingPlugin, ValidatingPlugin } from '../pipeline.ts';
import { defaultsPlugin } from './defaults.ts';
import { namespaceLifecycle, type NamespaceLifecycleOptions } from './lifecycle.ts';
import { serviceAccountAdmission, type ServiceAccountAdmissionOptions } from './serviceaccount.ts';
import { denyServiceExternalIPs } from './externalips.ts';
import { nodeRestriction } from './noderestriction/index.ts';
import { priorityAdmission, type PriorityAdmissionOptions } from './priority.ts';
import { podSecurityAdmission, type PodSecurityOptions } from './podsecurity/index.ts';
import { defaultTolerationSeconds } from './defaulttolerationseconds/index.ts';
import { mutatingWebhookPlugin, validatingWebhookPlugin, type WebhookPluginOptions } from './webhook/dispatcher.ts';
import { resourceQuotaAdmission, type ResourceQuotaOptions } from './resourcequota/plugin.ts';

export interface AdmissionChainOptions {
  /** Fault models to inject (reference/faults.ts); default none. */
  faults?: Faults;
  getNamespace: NamespaceLifecycleOptions['getNamespace'];
  getServiceAccount: ServiceAccountAdmissionOptions['getServiceAccount'];
  volumeNameSuffix: ServiceAccountAdmissionOptions['volumeNameSuffix'];
  /** Leave out to run without dynamic webhooks. */
  webhooks?: WebhookPluginOptions;
  /** Enable DenyServiceExternalIPs (off by default, as upstream). */
  denyServiceExternalIPs?: boolean;
  /** The PriorityClass listers for the Priority plugin; without them the plugin is not run. */
  priorityClasses?: PriorityAdmissionOptions;
  /** Leave out the ServiceAccount plugin (kube-apiserver --disable-admission-plugins=ServiceAccount). */
  disableServiceAccount?: boolean;
  /** Leave out PodSecurity (kube-apiserver --disable-admission-plugins=PodSecurity). */
  disablePodSecurity?: boolean;
  /** A namespace's pods, for PodSecurity's warnings when a namespace's enforce label gets stricter. */
  listPods?: (namespace: string) => Promise<any[]>;
  /** Quotas and object counts for the ResourceQuota plugin (last in the validating phase, as upstream); leave out to run without it. */
  resourceQuota?: ResourceQuotaOptions;
}

export interface AdmissionChain {
  mutating: MutatingPlugin[];
  validating: ValidatingPlugin[];
}

export function admissionChain(opts: AdmissionChainOptions): AdmissionChain {
  const mutating: MutatingPlugin[] = [defaultsPlugin(), namespaceLifecycle({ getNamespace: opts.getNamespace })];
  const validating: ValidatingPlugin[] = [];
  if (!opts.disableServiceAccount) {
    const sa = serviceAccountAdmission({ getServiceAccount: opts.getServiceAccount, volumeNameSuffix: opts.volumeNameSuffix });
    mutating.push(sa);
    validating.push(sa);
  }
  mutating.push(nodeRestriction());
  if (opts.priorityClasses) mutating.push(priorityAdmission(opts.priorityClasses));
  if (!opts.disablePodSecurity) {
    // The namespace lister returns whole Namespace objects; PodSecurity reads their labels.
    const getNamespace = async (name: string) => (await opts.getNamespace(name)) as Awaited<ReturnType<PodSecurityOptions['getNamespace']>>;
    validating.push(podSecurityAdmission({ getNamespace, ...(opts.listPods ? { listPods: opts.listPods } : {}), ...(opts.faults ? { faults: opts.faults } : {}) }));
  }
  // On by default upstream (DefaultOnAdmissionPlugins).
  mutating.push(defaultTolerationSeconds());
  if (opts.denyServiceExternalIPs) validating.push(denyServiceExternalIPs());
  if (opts.webhooks) {
    mutating.push(mutatingWebhookPlugin(opts.webhooks));
    validating.push(validatingWebhookPlugin(opts.webhooks));
  }
  if (opts.resourceQuota) validating.push(resourceQuotaAdmission(opts.resourceQuota));
  return { mutating, validating };
}
