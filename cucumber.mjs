/**
 * cucumber-js configuration. The default profile is empty on purpose: `kubespec run` and
 * `kubespec selftest` pass everything on the command line. The `mutation` profile is what
 * Stryker's cucumber runner loads (stryker.config.mjs): it has no command line of its own.
 */
export default {};

export const mutation = {
  import: ['steps/**/*.ts'],
};
