import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import { EngramError } from '../domain/errors.js';
import type { EngramContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: EngramContext;
  DefaultFieldNullability: false;
  /** write: may change the graph (write and admin keys, or no keys configured); admin: admin keys (or no keys). */
  AuthScopes: { write: boolean; admin: boolean };
  Scalars: {
    ID: { Input: string; Output: string };
    DateTime: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  // Scope auth first: a caller without the scope is refused before its arguments are even validated.
  plugins: [ScopeAuthPlugin, ValidationPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    // A context without a role comes from no-key (header) mode, where every caller may write.
    authScopes: (ctx) => ({ write: ctx.role !== 'read', admin: ctx.role === undefined || ctx.role === 'admin' }),
    unauthorizedError: (_parent, ctx, info) =>
      new EngramError(
        'FORBIDDEN',
        `${info.parentType.name}.${info.fieldName}: this API key (role ${ctx.role ?? 'unknown'}) may not do this; writes need a write or admin key`,
      ),
  },
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
