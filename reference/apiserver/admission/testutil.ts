/** Shared builders for the admission tests. */
import type { AdmissionAttributes, Operation } from '../pipeline.ts';

export function podAttrs(object: any, overrides: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE' as Operation,
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: '',
    namespace: 'default',
    name: object?.metadata?.name ?? '',
    user: { name: 'alice', groups: ['system:authenticated'] },
    object,
    dryRun: false,
    ...overrides,
  };
}

export function attrsFor(resource: string, kind: string, group: string, object: any, overrides: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return podAttrs(object, {
    kind: { group, version: 'v1', kind },
    resource: { group, version: 'v1', resource },
    ...overrides,
  });
}
