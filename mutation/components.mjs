/**
 * What `npm run mutation -- <component>` mutates, and the features whose scenarios must kill
 * the mutants. The score is the feature suite's alone (issue 16): no unit test runs, so a
 * surviving mutant is a wrong implementation some Rule's scenario should have rejected.
 *
 * Each entry is kept small enough to finish in a few minutes on a shared 2-core machine: every
 * mutant runs its features once (the command runner cannot measure per-scenario coverage).
 */
export const COMPONENTS = {
  'scheduler-tainttoleration': {
    mutate: ['reference/scheduler/plugins/tainttoleration/index.ts'],
    features: ['features/scheduler/taints.feature', 'features/scheduler/filter-score-bind.feature'],
  },
  'proxy-iptables': {
    mutate: ['reference/proxy/iptables/proxier.ts'],
    // kube-proxy's default mode is iptables: the Service scenarios go through this file too.
    features: ['features/proxy/iptables-vs-ipvs.feature', 'features/proxy/service.feature'],
  },
};
