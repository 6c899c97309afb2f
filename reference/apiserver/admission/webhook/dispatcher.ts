/**
 * MutatingAdmissionWebhook and ValidatingAdmissionWebhook.
 *
 * Follows staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/{mutating,validating}/dispatcher.go:
 * - configurations are taken in name order (configuration/*_webhook_manager.go sorts them) and
 *   webhooks in their listed order; mutating webhooks are called one after another, each seeing
 *   the previous one's patch; validating webhooks upstream run in parallel and the first error
 *   wins — here they run in order, which gives the same answer deterministically;
 * - a webhook that answers allowed=false denies the request with its status:
 *   `admission webhook "x" denied the request: <message>` (webhook/errors/statuserror.go
 *   ToStatusErr: code below 400 becomes 400; reason as the webhook gave it);
 * - a webhook that cannot be called, times out or answers nonsense is an ErrCallingWebhook:
 *   ignored under failurePolicy Ignore, otherwise 500 `Internal error occurred: failed calling
 *   webhook "x": ...` (Fail is the v1 default);
 * - a dry-run request may only reach webhooks whose sideEffects are None or NoneOnDryRun;
 * - a JSONPatch is applied to the object, then defaults are applied again, as upstream does.
 * Not implemented: clientConfig.service (this server has no service network; such a webhook is
 * a call failure subject to failurePolicy), reinvocationPolicy IfNeeded, matchPolicy
 * Equivalent, matchConditions, AdmissionReview v1beta1.
 */
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from '../../pipeline.ts';
import { AdmissionDenied } from '../../pipeline.ts';
import { badRequest, internalError, notFound } from '../errors.ts';
import { applyDefaults } from '../defaults.ts';
// The same RFC 6902 implementation the PATCH verb uses.
import { applyJsonPatch } from '../../patch/json-patch.ts';
import { isExemptConfigurationResource, namespaceSelectorMatches, objectSelectorMatches, webhookRulesMatch } from './match.ts';
import { admissionReviewRequest, decodePatch, verifyAdmissionResponse, type AdmissionResult } from './review.ts';
import type { Webhook, WebhookCaller, WebhookConfiguration, WebhookConfigurationLister } from './types.ts';

export const MUTATING_WEBHOOK_PLUGIN_NAME = 'MutatingAdmissionWebhook';
export const VALIDATING_WEBHOOK_PLUGIN_NAME = 'ValidatingAdmissionWebhook';
export const DEFAULT_WEBHOOK_TIMEOUT_SECONDS = 10;

export interface WebhookPluginOptions {
  lister: WebhookConfigurationLister;
  call: WebhookCaller;
  /** A fresh AdmissionReview request uid (upstream: a random UUID). */
  newUid(): string;
  /** Re-applied after a patch; default: this folder's applyDefaults. */
  defaulter?: (resource: { group: string; resource: string }, obj: unknown) => void;
  /** Told about every webhook call and its outcome, for the request trace. */
  onCall?(event: WebhookCallEvent): void;
}

export interface WebhookCallEvent {
  plugin: string;
  configuration: string;
  webhook: string;
  outcome: 'allowed' | 'patched' | 'denied' | 'failed-open' | 'failed-closed';
  detail?: string;
}

/** A transport-level failure; its message completes `failed calling webhook "x": `. */
class CallingWebhookError extends Error {}

export function mutatingWebhookPlugin(opts: WebhookPluginOptions): MutatingPlugin {
  return {
    name: MUTATING_WEBHOOK_PLUGIN_NAME,
    async admit(attrs: AdmissionAttributes): Promise<void> {
      if (isExemptConfigurationResource(attrs)) return;
      const configs = await opts.lister.mutatingWebhookConfigurations();
      for (const [config, hook] of hooksInOrder(configs)) {
        if (!(await shouldCall(hook, attrs, opts, MUTATING_WEBHOOK_PLUGIN_NAME))) continue;
        const result = await callOrFail(MUTATING_WEBHOOK_PLUGIN_NAME, config, hook, attrs, opts, true);
        if (!result?.patch || result.patch.length === 0) continue;
        applyPatch(hook, attrs, result, opts);
        opts.onCall?.({ plugin: MUTATING_WEBHOOK_PLUGIN_NAME, configuration: config, webhook: hook.name, outcome: 'patched' });
      }
    },
  };
}

export function validatingWebhookPlugin(opts: WebhookPluginOptions): ValidatingPlugin {
  return {
    name: VALIDATING_WEBHOOK_PLUGIN_NAME,
    async validate(attrs: AdmissionAttributes): Promise<void> {
      if (isExemptConfigurationResource(attrs)) return;
      const configs = await opts.lister.validatingWebhookConfigurations();
      for (const [config, hook] of hooksInOrder(configs)) {
        if (!(await shouldCall(hook, attrs, opts, VALIDATING_WEBHOOK_PLUGIN_NAME))) continue;
        await callOrFail(VALIDATING_WEBHOOK_PLUGIN_NAME, config, hook, attrs, opts, false);
      }
    },
  };
}

function hooksInOrder(configs: readonly WebhookConfiguration[]): Array<[string, Webhook]> {
  const sorted = [...configs].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  return sorted.flatMap((c) => (c.webhooks ?? []).map((h): [string, Webhook] => [c.metadata.name, h]));
}

async function shouldCall(hook: Webhook, attrs: AdmissionAttributes, opts: WebhookPluginOptions, plugin: string): Promise<boolean> {
  if (!objectSelectorMatches(hook.objectSelector, attrs)) return false;
  if (!webhookRulesMatch(hook, attrs)) return false;
  const ns = await namespaceSelectorMatches(hook.namespaceSelector, attrs, (n) => opts.lister.namespaceLabels(n));
  // Upstream answers 404 for a namespaced request into a namespace that does not exist.
  if ('namespaceMissing' in ns) throw notFound('', 'namespaces', ns.namespaceMissing, plugin);
  return ns.matches;
}

/** Call the webhook; undefined when a failure was ignored. Throws AdmissionDenied on denial or a failing-closed error. */
async function callOrFail(
  plugin: string,
  config: string,
  hook: Webhook,
  attrs: AdmissionAttributes,
  opts: WebhookPluginOptions,
  mutating: boolean,
): Promise<AdmissionResult | undefined> {
  const report = (outcome: WebhookCallEvent['outcome'], detail?: string) =>
    opts.onCall?.({ plugin, configuration: config, webhook: hook.name, outcome, ...(detail ? { detail } : {}) });
  if (attrs.dryRun && hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') {
    throw badRequest(`admission webhook "${hook.name}" does not support dry run`, plugin);
  }
  let result: AdmissionResult;
  try {
    result = await callWebhook(hook, attrs, opts, mutating);
  } catch (e) {
    if (!(e instanceof CallingWebhookError)) throw e;
    const message = `failed calling webhook "${hook.name}": ${e.message}`;
    if (hook.failurePolicy === 'Ignore') {
      report('failed-open', message);
      return undefined;
    }
    report('failed-closed', message);
    throw internalError(message, plugin);
  }
  if (!result.allowed) {
    const denied = denial(hook.name, result, plugin);
    report('denied', denied.message);
    throw denied;
  }
  report('allowed');
  return result;
}

async function callWebhook(hook: Webhook, attrs: AdmissionAttributes, opts: WebhookPluginOptions, mutating: boolean): Promise<AdmissionResult> {
  const url = hook.clientConfig.url;
  if (!url) {
    throw new CallingWebhookError('failed to call webhook: clientConfig.service is not supported by this API server; use clientConfig.url');
  }
  if (!(hook.admissionReviewVersions ?? ['v1']).includes('v1')) {
    throw new CallingWebhookError('could not create admission objects: webhook does not accept known AdmissionReview versions (v1)');
  }
  const timeout_s = hook.timeoutSeconds ?? DEFAULT_WEBHOOK_TIMEOUT_SECONDS;
  const uid = opts.newUid();
  const callUrl = `${url}${url.includes('?') ? '&' : '?'}timeout=${timeout_s}s`;
  const caBundlePem = hook.clientConfig.caBundle ? Buffer.from(hook.clientConfig.caBundle, 'base64').toString('utf8') : undefined;
  let response;
  try {
    const body = JSON.stringify(admissionReviewRequest(uid, attrs));
    response = await opts.call({ url: callUrl, timeout_ms: timeout_s * 1000, body, ...(caBundlePem ? { caBundlePem } : {}) });
  } catch (e) {
    throw new CallingWebhookError(`failed to call webhook: Post "${callUrl}": ${(e as Error).message}`);
  }
  if (response.status < 200 || response.status > 299) {
    throw new CallingWebhookError(`failed to call webhook: the server responded with status ${response.status}: ${response.body.slice(0, 200)}`);
  }
  let result: AdmissionResult;
  try {
    result = verifyAdmissionResponse(uid, mutating, response.body);
  } catch (e) {
    throw new CallingWebhookError(`received invalid webhook response: ${(e as Error).message}`);
  }
  if (result.allowed && result.rawPatch !== undefined) {
    try {
      result.patch = decodePatch(result.rawPatch, result.patchType ?? '');
    } catch (e) {
      throw new CallingWebhookError((e as Error).message);
    }
  }
  return result;
}

/** statuserror.go ToStatusErr. */
function denial(webhookName: string, result: AdmissionResult, plugin: string): AdmissionDenied {
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const status = result.status ?? {};
  const code = typeof status.code === 'number' && status.code >= 400 ? status.code : 400;
  const message = status.message ? `${deniedBy}: ${status.message}` : status.reason ? `${deniedBy}: ${status.reason}` : `${deniedBy} without explanation`;
  return new AdmissionDenied(message, code, status.reason ?? '', plugin);
}

function applyPatch(hook: Webhook, attrs: AdmissionAttributes, result: AdmissionResult, opts: WebhookPluginOptions): void {
  if (attrs.object == null) {
    throw internalError(`admission webhook "${hook.name}" attempted to modify the object, which is not supported for this operation`, MUTATING_WEBHOOK_PLUGIN_NAME);
  }
  let patched: unknown;
  try {
    patched = applyJsonPatch(attrs.object, result.patch ?? []);
  } catch (e) {
    throw internalError((e as Error).message, MUTATING_WEBHOOK_PLUGIN_NAME);
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
    throw internalError('the patched object is not a JSON object', MUTATING_WEBHOOK_PLUGIN_NAME);
  }
  (opts.defaulter ?? applyDefaults)(attrs.resource, patched);
  replaceInPlace(attrs.object, patched as Record<string, unknown>);
}

/** The pipeline passes the object by reference: keep the same object, with the patched content. */
function replaceInPlace(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, source);
}
