/** The admission stage's public surface. */
export { defaultsPlugin, applyDefaults, imageTag, DEFAULTS_PLUGIN_NAME } from './defaults.ts';
export {
  serviceAccountAdmission,
  tokenVolume,
  SERVICE_ACCOUNT_PLUGIN_NAME,
  DEFAULT_SERVICE_ACCOUNT_NAME,
  DEFAULT_API_TOKEN_MOUNT_PATH,
  type ServiceAccountAdmissionOptions,
} from './serviceaccount.ts';
export { namespaceLifecycle, NAMESPACE_LIFECYCLE_PLUGIN_NAME, IMMORTAL_NAMESPACES, type NamespaceLifecycleOptions } from './lifecycle.ts';
export { denyServiceExternalIPs, DENY_SERVICE_EXTERNAL_IPS_PLUGIN_NAME } from './externalips.ts';
export {
  mutatingWebhookPlugin,
  validatingWebhookPlugin,
  MUTATING_WEBHOOK_PLUGIN_NAME,
  VALIDATING_WEBHOOK_PLUGIN_NAME,
  DEFAULT_WEBHOOK_TIMEOUT_SECONDS,
  type WebhookPluginOptions,
  type WebhookCallEvent,
} from './webhook/dispatcher.ts';
export { ruleMatches } from './webhook/match.ts';
export type * from './webhook/types.ts';
export { randomSuffix } from './names.ts';
export { admissionForbidden, internalError, notFound, badRequest } from './errors.ts';
export { admissionChain, type AdmissionChain, type AdmissionChainOptions } from './chain.ts';
export { priorityAdmission, systemPriorityClasses, PRIORITY_PLUGIN_NAME, SYSTEM_CLUSTER_CRITICAL, SYSTEM_NODE_CRITICAL } from './priority.ts';
export { podSecurityAdmission, evaluatePod, forbiddenDetail, policyFromLabels, POD_SECURITY_PLUGIN_NAME, type PodSecurityOptions, type Violation } from './podsecurity/index.ts';
