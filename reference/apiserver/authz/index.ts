/** The authorization stage's public surface. */
export { rbacAuthorizer, ruleResolver, appliesToUser, type RbacOptions, type RuleResolver } from './rbac.ts';
export { escalationReason, uncoveredRules, FULL_AUTHORITY } from './escalation.ts';
export { ruleAllows } from './rules.ts';
export { aggregateClusterRoles } from './aggregation.ts';
export { forbiddenMessage, forbiddenStatus, type Status as ForbiddenStatus } from './forbidden.ts';
export { labelSelectorMatches, type LabelSelector, type LabelSelectorRequirement, type Labels } from './labels.ts';
export type * from './types.ts';
