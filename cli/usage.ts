/** Usage errors: exit code 2 and a message that says how to fix it. */
export class UsageError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURES = 1;
export const EXIT_USAGE = 2;
