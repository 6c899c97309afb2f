/** Pod Security admission: the Pod Security Standards' levels enforced, warned and audited per namespace. */
export { podSecurityAdmission, POD_SECURITY_PLUGIN_NAME, AUDIT_ANNOTATION_PREFIX, type PodSecurityOptions } from './plugin.ts';
export { evaluatePod, forbiddenDetail, type Violation } from './evaluate.ts';
export { policyFromLabels, describe, type Level, type LevelVersion, type Policy } from './policy.ts';
