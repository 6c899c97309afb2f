/**
 * /version (k8s.io/apimachinery/pkg/version.Info). Google's kubectl dispatcher picks the
 * bundled kubectl matching the server's minor version (it bundles 1.27–1.33), so the reference
 * reports a version in that range.
 */
export const DEFAULT_GIT_VERSION = 'v1.31.0';

export function versionInfo(gitVersion: string): unknown {
  const m = /^v(\d+)\.(\d+)/.exec(gitVersion);
  return {
    major: m?.[1] ?? '1',
    minor: m?.[2] ?? '31',
    gitVersion,
    gitCommit: 'kubespec-reference',
    gitTreeState: 'clean',
    buildDate: '2024-08-13T00:00:00Z',
    goVersion: 'go1.22.5',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}
