/**
 * ExtensionPointRecorder: an out-of-tree plugin, registered through the framework's registry as
 * a custom scheduler build registers its own (app.WithPlugin upstream), that takes part at every
 * extension point a profile can give a plugin except QueueSort (one QueueSort serves every
 * profile, as upstream requires) and writes down where it was called.
 *
 * - Filter rejects every node while the pod carries the label `kubespec.io/recorder-reject=true`,
 *   so a scenario can make a cycle fail and see PostFilter; removing the label (a pod update)
 *   brings the pod back to the queue.
 * - Bind binds through the binding subresource like DefaultBinder, with the annotation
 *   `scheduler.kubespec.io/extension-points` holding every cycle's points in order ("; "
 *   between cycles); PostBind, after the binding, records an Event `PostBind` with the same.
 * The reference runs it in the profile `kubespec-recorder` (reference/wiring/scheduler.ts), so
 * only pods with that schedulerName meet it.
 */
import type { Action, BindPlugin, CycleState, FilterPlugin, PermitPlugin, Pod, PostBindPlugin, PostFilterPlugin, PreBindPlugin, PreFilterPlugin, PreScorePlugin, ReservePlugin, ScorePlugin } from '../../types.ts';
import { podKey, status } from '../../types.ts';

export const NAME = 'ExtensionPointRecorder';
export const ANNOTATION = 'scheduler.kubespec.io/extension-points';
export const REJECT_LABEL = 'kubespec.io/recorder-reject';

type All = PreFilterPlugin & FilterPlugin & PostFilterPlugin & PreScorePlugin & ScorePlugin & ReservePlugin & PermitPlugin & PreBindPlugin & BindPlugin & PostBindPlugin;

export function extensionPointRecorder(): All {
  /** Per pod, the points of each cycle so far (plugins live as long as the scheduler). */
  const history = new Map<string, string[][]>();
  const mark = (state: CycleState, pod: Pod, point: string): void => {
    let cycle = state.read<string[]>(NAME);
    if (!cycle) {
      cycle = [];
      state.write(NAME, cycle);
      const cycles = history.get(podKey(pod)) ?? [];
      cycles.push(cycle);
      history.set(podKey(pod), cycles);
    }
    if (cycle.at(-1) !== point) cycle.push(point);
  };
  const text = (pod: Pod) => (history.get(podKey(pod)) ?? []).map((c) => c.join(',')).join('; ');
  return {
    name: NAME,
    events: ['NodeAdd'],
    preFilter: (s, pod) => void mark(s, pod, 'PreFilter'),
    filter(s, pod, node) {
      mark(s, pod, 'Filter');
      void node;
      return pod.metadata.labels?.[REJECT_LABEL] === 'true' ? status('UnschedulableAndUnresolvable', `pod has label ${REJECT_LABEL}=true`) : undefined;
    },
    postFilter(s, pod) {
      mark(s, pod, 'PostFilter');
      return { status: status('Unschedulable') };
    },
    preScore: (s, pod) => void mark(s, pod, 'PreScore'),
    score(s, pod) {
      mark(s, pod, 'Score');
      return 0;
    },
    normalize: (s, pod) => mark(s, pod, 'NormalizeScore'),
    reserve: (s, pod) => void mark(s, pod, 'Reserve'),
    unreserve: (s, pod) => mark(s, pod, 'Unreserve'),
    permit: (s, pod) => void mark(s, pod, 'Permit'),
    preBind(s, pod) {
      mark(s, pod, 'PreBind');
      return [];
    },
    bind(s, pod, node): Action[] {
      mark(s, pod, 'Bind');
      return [{ kind: 'bind', pod, node, annotations: { [ANNOTATION]: text(pod) } }];
    },
    postBind(s, pod): Action[] {
      mark(s, pod, 'PostBind');
      const points = text(pod);
      history.delete(podKey(pod));
      return [{ kind: 'event', pod, type: 'Normal', reason: 'PostBind', message: `extension points: ${points}` }];
    },
  };
}
