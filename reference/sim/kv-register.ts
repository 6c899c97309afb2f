/**
 * A minimal replicated key-value register for the simulator's own tests: put, get and
 * compare-and-swap over JSON commands, matching the lincheck KV model one for one.
 */
import type { KvInput } from '../../lincheck/kv-model.ts';
import type { StateMachine } from './state-machine.ts';

export class KvRegisterMachine implements StateMachine {
  private readonly values = new Map<string, string>();

  apply(command: string): unknown {
    const input = JSON.parse(command) as KvInput;
    switch (input.op) {
      case 'put':
        this.values.set(input.key, input.value);
        return true;
      case 'get':
        return this.values.get(input.key) ?? null;
      case 'cas': {
        if ((this.values.get(input.key) ?? null) !== input.expect) return false;
        this.values.set(input.key, input.value);
        return true;
      }
    }
  }

  query(command: string): unknown {
    const input = JSON.parse(command) as KvInput;
    if (input.op !== 'get') throw new Error(`query only answers get, not ${input.op}`);
    return this.values.get(input.key) ?? null;
  }

  snapshot(): string {
    return JSON.stringify([...this.values.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
