/**
 * authentication.k8s.io/v1 TokenReview and SelfSubjectReview, authorization.k8s.io/v1
 * SelfSubjectRulesReview (k8s.io/api/authentication/v1, authorization/v1 types.go).
 */
import { arr, bool, mapOf, obj, str, strs } from '../../schema/types.ts';
import { kindSchema } from './meta.ts';

const userInfo = obj({ username: str(), uid: str(), groups: strs(), extra: mapOf(strs()) });

export const tokenReview = kindSchema(
  {
    spec: obj({ token: str(), audiences: strs() }),
    status: obj({ authenticated: bool(), user: userInfo, audiences: strs(), error: str() }),
  },
  ['spec'],
);

export const selfSubjectReview = kindSchema({ status: obj({ userInfo }) });

export const selfSubjectRulesReview = kindSchema(
  {
    spec: obj({ namespace: str() }),
    status: obj({
      resourceRules: arr(obj({ verbs: strs(), apiGroups: strs(), resources: strs(), resourceNames: strs() })),
      nonResourceRules: arr(obj({ verbs: strs(), nonResourceURLs: strs() })),
      incomplete: bool(),
      evaluationError: str(),
    }),
  },
  ['spec'],
);
