/**
 * The line `kubespec serve` prints about what runs behind its API server, derived from what was
 * actually started (not a fixed text): a user must be able to tell that, say, no scheduler binds
 * their pods, or no kube-proxy programs their Services, before wondering why.
 */

/** What a serve process started; fields are optional so each component reports itself. */
export interface StartedComponents {
  /** Controller names running in the controller manager (empty: none). */
  controllers: readonly string[];
  scheduler: boolean;
  /** Nodes with a kubelet behind them. */
  kubelets: number;
  /** kube-proxy's mode, when one runs. */
  proxyMode?: string;
  /** Other components the serve process started (e.g. under --ha, --cloud). */
  extra?: readonly string[];
}

/** "running: …; not running: …" with kube-apiserver always first. */
export function componentsLine(c: StartedComponents): string {
  const running = ['kube-apiserver'];
  const missing: string[] = [];
  if (c.controllers.length > 0) running.push(`kube-controller-manager (${c.controllers.join(', ')})`);
  else missing.push('kube-controller-manager');
  (c.scheduler ? running : missing).push('kube-scheduler');
  if (c.kubelets > 0) running.push(`kubelet × ${c.kubelets}`);
  else missing.push('kubelet');
  if (c.proxyMode) running.push(`kube-proxy (${c.proxyMode})`);
  else missing.push('kube-proxy');
  running.push(...(c.extra ?? []));
  return `running: ${running.join(', ')}; not running: ${missing.length > 0 ? missing.join(', ') : 'nothing'}`;
}

/**
 * Reads what a started ReferenceCluster runs. Components that other parts of the wiring add
 * (scheduler, kubelets, proxies) are read by their field when present, so a cluster without them
 * reports them as not running rather than failing to compile.
 */
export function startedComponentsOf(cluster: object, extra: { proxyMode?: string; extra?: readonly string[] } = {}): StartedComponents {
  const c = cluster as { controllers?: { names?: string[] }; scheduler?: unknown; kubelets?: { size?: number; length?: number } };
  const kubelets = c.kubelets?.size ?? c.kubelets?.length ?? 0;
  return { controllers: c.controllers?.names ?? [], scheduler: Boolean(c.scheduler), kubelets, ...(extra.proxyMode ? { proxyMode: extra.proxyMode } : {}), ...(extra.extra?.length ? { extra: extra.extra } : {}) };
}

/**
 * A duration flag: a whole number with a unit (ms, s, m, h), as etcd's and Kubernetes' duration
 * flags read (`5m`, `90s`); undefined when the text is not one.
 */
export function parseDuration_ms(text: string): number | undefined {
  const m = /^(\d{1,9})(ms|s|m|h)$/.exec(text.trim());
  if (!m) return undefined;
  const unit_ms = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
  return Number(m[1]) * unit_ms;
}
