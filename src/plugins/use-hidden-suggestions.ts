import type { Plugin } from 'graphql-yoga';

/**
 * Every phrasing graphql-js uses: `Did you mean "x"?`, `"x" or "y"?`, `the enum value "X"?`,
 * `to use an inline fragment on "T"?`. GraphQL names cannot hold "?", so the sentence ends at the first one.
 */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;
const MASK = ' [Suggestion hidden]';

const hide = <E extends Error>(error: E): E => {
  error.message = error.message.replace(SUGGESTION, MASK);
  return error;
};

/**
 * Removes "Did you mean ..." from every error, so a closed API does not reveal field, argument,
 * type or enum names. Validation errors are not the only ones that suggest: a variable that fails
 * coercion (an unknown input field, a misspelt enum value) is reported during execution.
 */
export function useHiddenSuggestions(): Plugin {
  return {
    onValidate() {
      return ({ result, setResult }) => {
        if (result.length > 0) setResult(result.map(hide));
      };
    },
    onExecute() {
      return {
        onExecuteDone({ result }) {
          if ('errors' in result) result.errors?.forEach(hide);
        },
      };
    },
  };
}
