/** Parameter types shared by the steps. */
import { defineParameterType } from '@cucumber/cucumber';

// "a", "b" and "c" → ['a', 'b', 'c']; also a single "a".
defineParameterType({
  name: 'names',
  regexp: /"[^"]*"(?:(?:, | and )"[^"]*")*/,
  transformer: (text: string) => [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1]!),
});
