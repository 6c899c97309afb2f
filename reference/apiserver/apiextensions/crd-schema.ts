/**
 * The CustomResourceDefinition kind's own schema (apiextensions.k8s.io/v1 types.go): the fields
 * this server reads are typed; a version's openAPIV3Schema, conversion and printer columns are
 * kept as written.
 */
import { arr, bool, free, obj, open, str, strs } from '../schema/types.ts';
import { kindSchema, statusWithConditions } from '../resources/schemas/meta.ts';

const names = open({ plural: str(), singular: str(), kind: str(), listKind: str(), shortNames: strs(), categories: strs() });

const version = open({
  name: str(),
  served: bool(),
  storage: bool(),
  deprecated: bool(),
  deprecationWarning: str(),
  schema: free('openAPIV3Schema: the structural schema objects of this version are validated and pruned against.'),
  subresources: free('status and scale subresources the custom resource serves.'),
  additionalPrinterColumns: arr(free()),
  selectableFields: arr(free()),
});

export const customResourceDefinition = kindSchema({
  spec: obj({
    group: str('The API group the custom resources are served under: /apis/<group>/<version>.'),
    names,
    scope: str('Cluster or Namespaced.'),
    versions: arr(version),
    conversion: free(),
    preserveUnknownFields: bool(),
  }),
  status: statusWithConditions({ acceptedNames: names, storedVersions: strs() }),
});
