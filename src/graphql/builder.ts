import SchemaBuilder from '@pothos/core';
import ValidationPlugin from '@pothos/plugin-validation';
import { EngramError } from '../domain/errors.js';
import type { EngramContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: EngramContext;
  DefaultFieldNullability: false;
  Scalars: {
    ID: { Input: string; Output: string };
    DateTime: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [ValidationPlugin],
  defaultFieldNullability: false,
  validation: {
    // Name the argument (input.title, maxHops, ...) and the rule it broke: the contract's BAD_USER_INPUT.
    validationError: (failure) => {
      const problems = failure.issues.map((issue) => {
        const path = (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment));
        const argument = path.filter((segment) => typeof segment !== 'number').join('.') || 'arguments';
        return { argument, message: `${argument}: ${issue.message}` };
      });
      return new EngramError('BAD_USER_INPUT', problems.map((problem) => problem.message).join('; '), {
        extensions: { argument: problems[0]?.argument },
      });
    },
  },
});
