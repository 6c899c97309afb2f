import assert from 'node:assert/strict';
import test from 'node:test';
import { programOf } from './program.ts';

test('a TERM trap ends the shell at once only while it waits on a background job, as POSIX sh runs traps', () => {
  assert.equal(programOf('busybox', ['sh', '-c', 'trap "exit 143" TERM; sleep 3600 & wait']).handlesTerm, true);
  // A foreground sleep defers the trap until the sleep ends: a stop waits for SIGKILL.
  assert.equal(programOf('busybox', ['sh', '-c', 'trap "exit 143" TERM; sleep 3600']).handlesTerm, false);
  assert.equal(programOf('busybox', ['sh', '-c', 'sleep 3600']).handlesTerm, false);
});

test('"sleep N & wait" runs for N seconds', () => {
  assert.deepEqual(programOf('busybox', ['sh', '-c', 'trap "exit 143" TERM; touch /tmp/live; sleep 3600 & wait']).steps, [{ op: 'touch', path: '/tmp/live' }, { op: 'sleep', seconds: 3600 }]);
});
