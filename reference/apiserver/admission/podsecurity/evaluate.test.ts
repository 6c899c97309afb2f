import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluatePod, forbiddenDetail } from './evaluate.ts';
import { describe, policyFromLabels, type LevelVersion } from './policy.ts';

const latest = (level: LevelVersion['level']): LevelVersion => ({ level, version: 'latest' });
const detail = (level: LevelVersion['level'], spec: any, meta: any = {}) => forbiddenDetail(evaluatePod(latest(level), meta, spec));

/** A pod that meets restricted: what the Pod Security Standards page asks of every container. */
const restrictedSpec = () => ({
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [{ name: 'c', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
  volumes: [{ name: 'cfg', configMap: { name: 'x' } }],
});

test('a pod that meets restricted passes every level; privileged never reports anything', () => {
  for (const level of ['privileged', 'baseline', 'restricted'] as const) assert.equal(detail(level, restrictedSpec()), '');
  assert.equal(detail('privileged', { hostNetwork: true, containers: [{ name: 'c', securityContext: { privileged: true } }] }), '');
});

test('a plain pod (no securityContext) meets baseline but not restricted, with upstream\'s four reasons in upstream\'s order', () => {
  const spec = { containers: [{ name: 'nginx', image: 'nginx' }] };
  assert.equal(detail('baseline', spec), '');
  assert.equal(
    detail('restricted', spec),
    'allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), ' +
      'seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  );
});

test('a privileged hostPath pod violates baseline: privileged first, then the overlapping hostPath check', () => {
  const spec = { containers: [{ name: 'c', securityContext: { privileged: true } }], volumes: [{ name: 'root', hostPath: { path: '/' } }] };
  assert.equal(detail('baseline', spec), 'privileged (container "c" must not set securityContext.privileged=true), hostPath volumes (volume "root")');
  const restricted = detail('restricted', spec);
  assert.match(restricted, /^privileged \(container "c" must not set securityContext.privileged=true\), allowPrivilegeEscalation != false/);
  assert.match(restricted, /restricted volume types \(volume "root" uses restricted volume type "hostPath"\)/);
  assert.doesNotMatch(restricted, /hostPath volumes/, 'restricted replaces the overlapping baseline check');
});

test('each baseline check names what it forbids', () => {
  const cases: [string, any, string][] = [
    ['host namespaces', { hostPID: true, hostNetwork: true, containers: [] }, 'host namespaces (hostNetwork, hostPID)'],
    ['host ports', { containers: [{ name: 'a', ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 81 }] }] }, 'hostPort (container "a" uses hostPort 8080)'],
    ['capabilities', { containers: [{ name: 'a', securityContext: { capabilities: { add: ['NET_ADMIN', 'CHOWN', 'SYS_ADMIN'] } } }] }, 'non-default capabilities (container "a" must not include "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add)'],
    ['procMount', { containers: [{ name: 'a', securityContext: { procMount: 'Unmasked' } }] }, 'procMount (container "a" must not set securityContext.procMount to "Unmasked")'],
    ['seccomp', { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [] }, 'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")'],
    ['sysctls', { securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '1' }, { name: 'net.ipv4.tcp_syncookies', value: '1' }] }, containers: [] }, 'forbidden sysctls (kernel.msgmax)'],
    ['SELinux', { containers: [{ name: 'a', securityContext: { seLinuxOptions: { type: 'spc_t', user: 'u' } } }] }, 'seLinuxOptions (container "a" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)'],
    ['probe host', { containers: [{ name: 'a', livenessProbe: { httpGet: { host: '10.0.0.1', port: 80 } }, lifecycle: { preStop: { tcpSocket: { host: 'metadata', port: 80 } } } }] }, 'probe or lifecycle host (container "a" uses probe or lifecycle hosts "10.0.0.1", "metadata")'],
    ['hostProcess', { securityContext: { windowsOptions: { hostProcess: true } }, containers: [] }, 'hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)'],
  ];
  for (const [what, spec, expected] of cases) assert.equal(detail('baseline', spec), expected, what);
  const apparmor = { annotations: { 'container.apparmor.security.beta.kubernetes.io/a': 'unconfined' } };
  assert.equal(detail('baseline', { containers: [{ name: 'a' }] }, apparmor), 'forbidden AppArmor profile (container.apparmor.security.beta.kubernetes.io/a="unconfined")');
});

test('restricted: runAsUser 0, privilege escalation, added capabilities beyond NET_BIND_SERVICE, init containers count too', () => {
  const spec = restrictedSpec();
  spec.containers.push({ name: 'root', image: 'x', securityContext: { allowPrivilegeEscalation: true, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE', 'NET_RAW'] }, runAsUser: 0 } as any });
  assert.equal(
    detail('restricted', spec),
    'allowPrivilegeEscalation != false (container "root" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "root" must not include "NET_RAW" in securityContext.capabilities.add), ' +
      'runAsUser=0 (container "root" must not set runAsUser=0)',
  );
  const init = { ...restrictedSpec(), initContainers: [{ name: 'init', image: 'x', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: false } }] };
  assert.equal(detail('restricted', init), 'runAsNonRoot != true (container "init" must not set securityContext.runAsNonRoot=false)');
});

test('a pinned policy version leaves out checks newer than it (runAsUser arrived in v1.23)', () => {
  const spec = { ...restrictedSpec(), securityContext: { ...restrictedSpec().securityContext, runAsUser: 0 } };
  assert.match(detail('restricted', spec), /runAsUser=0 \(pod must not set runAsUser=0\)/);
  assert.equal(forbiddenDetail(evaluatePod({ level: 'restricted', version: { minor: 22 } }, {}, spec)), '');
});

test('namespace labels become the policy; absent labels keep privileged; bad labels fail closed for enforce and open for warn/audit', () => {
  const { policy, errors } = policyFromLabels({
    'pod-security.kubernetes.io/enforce': 'baseline',
    'pod-security.kubernetes.io/enforce-version': 'v1.30',
    'pod-security.kubernetes.io/warn': 'restricted',
  });
  assert.deepEqual(errors, []);
  assert.equal(describe(policy.enforce), 'baseline:v1.30');
  assert.equal(describe(policy.warn), 'restricted:latest');
  assert.equal(describe(policy.audit), 'privileged:latest');
  const bad = policyFromLabels({ 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn': 'loud', 'pod-security.kubernetes.io/audit-version': '1.30' });
  assert.equal(bad.policy.enforce.level, 'restricted');
  assert.equal(bad.policy.warn.level, 'privileged');
  assert.equal(bad.policy.audit.version, 'latest');
  assert.equal(bad.errors.length, 3);
});

test('malformed specs (fields of the wrong type) never make a check throw', () => {
  const weird: any[] = [
    { containers: 'c', volumes: 3, securityContext: { sysctls: 'x' } },
    { containers: [null, 5, { name: 'c', ports: 'p', securityContext: { capabilities: { add: 'NET_RAW', drop: 'ALL' } } }] },
    { initContainers: {}, ephemeralContainers: [{}], volumes: [null, { name: 'v' }] },
    null,
  ];
  for (const spec of weird) for (const level of ['baseline', 'restricted'] as const) assert.doesNotThrow(() => evaluatePod(latest(level), null, spec), JSON.stringify(spec));
});
