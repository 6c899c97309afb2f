/**
 * DefaultBinder (plugins/defaultbinder/default_binder.go): binds by POSTing a Binding to the
 * pod's `binding` subresource, which sets spec.nodeName once (a second binding is a 409).
 */
import type { BindPlugin } from '../../types.ts';

export const NAME = 'DefaultBinder';

export function defaultBinder(): BindPlugin {
  return { name: NAME, bind: (_s, pod, node) => [{ kind: 'bind', pod, node }] };
}
