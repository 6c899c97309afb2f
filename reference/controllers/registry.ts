/**
 * The controllers the reference controller manager knows, and kube-controller-manager's
 * --controllers flag to choose among them: `*` enables every controller on by default, `foo`
 * enables foo, `-foo` disables foo, the first entry naming a controller wins, and a list
 * without `*` enables only what it names (IsControllerEnabled in
 * cmd/kube-controller-manager/app/controllermanager.go; the flag's default is `*`). A name the
 * manager does not know is an error, as its options validation says.
 */
import { NO_FAULTS, type Faults } from '../faults.ts';
import { serviceAccountController } from './serviceaccount/index.ts';
import { replicaSetController } from './replicaset/index.ts';
import { deploymentController } from './deployment/index.ts';
import { garbageCollector } from './garbagecollector/index.ts';
import { nodeLifecycleController } from './nodelifecycle/index.ts';
import { taintEvictionController } from './tainteviction/index.ts';
import { jobController } from './job/index.ts';
import { ttlAfterFinishedController } from './ttlafterfinished/index.ts';
import { disruptionController } from './disruption/index.ts';
import { endpointSliceController } from './endpointslice/index.ts';
import { endpointsController } from './endpoint/index.ts';
import { namespaceController } from './namespace/index.ts';
import { clusterRoleAggregationController } from './clusterroleaggregation/index.ts';
import { podGcController } from './podgc/index.ts';
import type { ControllerDef } from './types.ts';

/** A flat map from name to factory, in start order. */
/** Each takes the run's fault models (reference/faults.ts); most ignore them. */
export const CONTROLLER_FACTORIES: ReadonlyArray<(faults: Faults) => ControllerDef> = [
  () => serviceAccountController(),
  replicaSetController,
  deploymentController,
  garbageCollector,
  () => nodeLifecycleController(),
  taintEvictionController,
  jobController,
  () => ttlAfterFinishedController(),
  () => disruptionController(),
  () => endpointSliceController(),
  () => endpointsController(),
  () => namespaceController(),
  () => clusterRoleAggregationController(),
  () => podGcController(),
];

/** The capabilities (contract/capabilities.ts) the controllers `flag` enables offer. */
export function controllerCapabilities(flag: readonly string[] = DEFAULT_CONTROLLERS_FLAG): string[] {
  return selectControllers(flag).flatMap((def) => (def.capability ? [def.capability] : []));
}

export const DEFAULT_CONTROLLERS_FLAG: readonly string[] = ['*'];

function names(def: ControllerDef): string[] {
  return [def.name, ...(def.aliases ?? [])];
}

export function isControllerEnabled(def: ControllerDef, flag: readonly string[]): boolean {
  let star = false;
  for (const entry of flag) {
    if (names(def).includes(entry)) return true;
    if (entry.startsWith('-') && names(def).includes(entry.slice(1))) return false;
    if (entry === '*') star = true;
  }
  return star;
}

/** The controllers `flag` enables (all known ones are on by default); throws on a name no controller has. */
export function selectControllers(flag: readonly string[] = DEFAULT_CONTROLLERS_FLAG, faults: Faults = NO_FAULTS): ControllerDef[] {
  const all = CONTROLLER_FACTORIES.map((make) => make(faults));
  const known = new Set(all.flatMap(names));
  for (const entry of flag) {
    const name = entry.startsWith('-') ? entry.slice(1) : entry;
    if (name !== '*' && !known.has(name)) {
      throw new Error(`"${name}" is not in the list of known controllers (${[...known].join(', ')})`);
    }
  }
  return all.filter((def) => isControllerEnabled(def, flag));
}
