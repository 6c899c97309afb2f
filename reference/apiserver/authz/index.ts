/** The authorization stage's public surface. */
export { rbacAuthorizer, appliesToUser, type RbacOptions } from './rbac.ts';
export { ruleAllows } from './rules.ts';
export { aggregateClusterRoles } from './aggregation.ts';
export { forbiddenMessage, forbiddenStatus, type Status as ForbiddenStatus } from './forbidden.ts';
export { labelSelectorMatches, type LabelSelector, type LabelSelectorRequirement, type Labels } from './labels.ts';
export type * from './types.ts';
