/**
 * The cloud side of a reference cluster: the simulated cloud (reference/cloud/model.ts) behind
 * its HTTP API, answered by msw handlers (reference/cloud/api.ts), and the
 * cloud-controller-manager as a leader-elected component (ha.ts) that reaches the API server as
 * its own user and the cloud through that API.
 *
 * The CCM's user and RBAC are what its deployment manifests install: a ClusterRole
 * system:cloud-controller-manager (kubernetes/website docs/concepts/architecture/cloud-controller.md,
 * "Authorization": nodes *, nodes/status patch/update, services list/watch/patch/update,
 * services/status patch/update, events, leases get/create/update, ...) bound to the user.
 */
import { cloudFetch } from '../cloud/api.ts';
import { CloudControllerManager } from '../cloud/ccm.ts';
import { CloudModel } from '../cloud/model.ts';
import { UNINITIALIZED_TAINT } from '../cloud/decisions.ts';
import { httpCloudProvider } from '../cloud/provider.ts';
import type { ComponentRunner } from './ha.ts';
import { JsonClient } from './lease-lock.ts';

export const CLOUD_CONTROLLER_MANAGER = 'cloud-controller-manager';
export const CCM_USER = 'system:cloud-controller-manager';

export interface ReferenceCloud {
  readonly model: CloudModel;
  /** The cloud API's base URL (answered in-process by msw handlers). */
  readonly base: string;
  readonly fetch: typeof fetch;
  runner(credentials: { token?: string; ca?: string | Buffer }): ComponentRunner;
}

export function referenceCloud(base: string, log?: (line: string) => void): ReferenceCloud {
  const model = new CloudModel();
  const cloudApi = cloudFetch(model, base);
  return {
    model,
    base,
    fetch: cloudApi,
    runner: (credentials) => async (ctx) => {
      const client = new JsonClient({
        server: ctx.server,
        userAgent: 'cloud-controller-manager/v1.31.0 (linux/amd64) kubespec-reference',
        ...(credentials.token ? { token: credentials.token } : {}),
        ...(credentials.ca ? { ca: credentials.ca } : {}),
      });
      const ccm = new CloudControllerManager({
        request: (method, path, body) => client.request(method, path, body),
        cloud: httpCloudProvider(base, cloudApi),
        clock: ctx.clock,
        log: (line) => (log ?? ctx.log)(`ccm: ${line}`),
      });
      ccm.start();
      return { stop: () => { ccm.stop(); client.close(); }, busy: () => client.inFlight > 0, writes: () => client.writes };
    },
  };
}

/** The CCM's ClusterRole and its binding, as its manifests install them. */
export function ccmRbacObjects(): any[] {
  const rule = (apiGroups: string[], resources: string[], verbs: string[]) => ({ apiGroups, resources, verbs });
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: CCM_USER },
      rules: [
        rule([''], ['events'], ['create', 'patch', 'update']),
        rule([''], ['nodes'], ['*']),
        rule([''], ['nodes/status'], ['patch', 'update']),
        rule([''], ['services'], ['list', 'watch', 'patch', 'update', 'get']),
        rule([''], ['services/status'], ['list', 'patch', 'update']),
        rule([''], ['serviceaccounts'], ['create']),
        rule([''], ['endpoints'], ['create', 'get', 'list', 'watch', 'update']),
        rule(['coordination.k8s.io'], ['leases'], ['get', 'create', 'update']),
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: CCM_USER },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: CCM_USER },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: CCM_USER }],
    },
  ];
}

/** The taint a kubelet run with --cloud-provider=external registers its Node with. */
export function uninitializedTaint(): { key: string; value: string; effect: string } {
  return { key: UNINITIALIZED_TAINT, value: 'true', effect: 'NoSchedule' };
}
