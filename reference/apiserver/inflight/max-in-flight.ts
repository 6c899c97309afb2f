/**
 * The max-in-flight limit: kube-apiserver's request throttle when API Priority and Fairness is
 * off (staging/src/k8s.io/apiserver/pkg/server/filters/maxinflight.go, WithMaxInFlightLimit).
 *
 * - Two pools of seats: mutating requests (--max-mutating-requests-inflight, default 200) and
 *   read-only ones — get, list, watch (--max-requests-inflight, default 400).
 * - Long-running requests (watches, and pods' exec/attach/portforward/proxy and a followed log)
 *   take no seat: they would hold it for as long as they stay open.
 * - A user in system:masters is never refused ("a super-admin or a loopback connection").
 * - When a pool is full the request is answered at once — no queue — with 429 Too Many
 *   Requests, `Retry-After: 1`, and the plain-text body "Too many requests, please try again
 *   later." (tooManyRequests, http.Error). It runs after authentication and impersonation and
 *   before authorization, as in DefaultBuildHandlerChain.
 *
 * API Priority and Fairness (the default since 1.20) answers an over-share client the same way
 * (429, Retry-After) once its priority level's queues are full; this reference models the
 * simpler filter, which upstream still runs with --enable-priority-and-fairness=false.
 *
 * Pure: counters only. The caller releases the seat when the request's answer is ready.
 */
import type { RequestInfo } from '../request-info.ts';
import { reply, type Reply } from '../types.ts';

export const DEFAULT_MAX_MUTATING_IN_FLIGHT = 200;
export const DEFAULT_MAX_READ_ONLY_IN_FLIGHT = 400;

export interface InFlightLimits {
  mutating: number;
  readOnly: number;
}

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);
const LONG_RUNNING_SUBRESOURCES = new Set(['exec', 'attach', 'portforward', 'proxy']);
const SYSTEM_MASTERS = 'system:masters';

export class MaxInFlight {
  private mutating = 0;
  private readOnly = 0;

  constructor(readonly limits: InFlightLimits) {}


  /**
   * A seat for this request: a release function, or the 429 answer when its pool is full.
   * `undefined` release: the request takes no seat (long-running, or system:masters).
   */
  admit(info: RequestInfo, query: URLSearchParams, groups: readonly string[]): { release: () => void } | { refused: Reply } {
    if (isLongRunning(info, query) || groups.includes(SYSTEM_MASTERS)) return NO_SEAT;
    const readOnly = READ_ONLY_VERBS.has(info.verb);
    if (readOnly ? this.readOnly >= this.limits.readOnly : this.mutating >= this.limits.mutating) return { refused: tooManyRequests() };
    if (readOnly) this.readOnly++;
    else this.mutating++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        if (readOnly) this.readOnly--;
        else this.mutating--;
      },
    };
  }

  inFlight(): { mutating: number; readOnly: number } {
    return { mutating: this.mutating, readOnly: this.readOnly };
  }
}

/** What a request that takes no seat releases: nothing (one shared object, not a closure per request). */
const NO_SEAT = Object.freeze({ release: (): void => {} });

/** genericfilters.BasicLongRunningRequestCheck over the verbs and subresources kube-apiserver names. */
function isLongRunning(info: RequestInfo, query: URLSearchParams): boolean {
  if (info.verb === 'watch' || info.verb === 'proxy') return true;
  if (LONG_RUNNING_SUBRESOURCES.has(info.subresource)) return true;
  return info.subresource === 'log' && ['true', '1'].includes((query.get('follow') ?? '').toLowerCase());
}

/** What maxinflight.go's tooManyRequests writes: Retry-After 1 and http.Error's plain text. */
function tooManyRequests(): Reply {
  return reply(429, 'Too many requests, please try again later.\n', {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'retry-after': '1',
  });
}
