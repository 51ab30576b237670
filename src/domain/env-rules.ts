import { z } from 'zod';

/**
 * The rules environment variables share, so config.ts and each store adapter's own variables
 * refuse a bad value with the same kind of message (the variable, its value and the rule).
 */

/** The words a boolean variable accepts, as written (TRUE is refused, as before zod's stringbool). */
const bool = () =>
  z
    .stringbool({
      truthy: ['true', '1', 'yes', 'on'],
      falsy: ['false', '0', 'no', 'off'],
      case: 'sensitive',
      error: 'must be true or false',
    })
    .meta({ enum: ['true', 'false'] }); // the reference (docs/configuration.md) lists the two words people write

export const flag = (fallback: boolean) => bool().optional().default(fallback);

/** A flag whose default depends on the mode: undefined when the variable is not set. */
export const optionalFlag = () => bool().optional();

/** A whole number in [min, max]; the message states the rule, as every numeric variable's does. */
/** A whole number in range, each refusal naming the range; optional() it for a variable whose absence means something. */
export const wholeNumber = (min = 1, max?: number) => {
  const rule =
    max === undefined ? `must be a whole number, ${min} or more` : `must be a whole number from ${min} to ${max}`;
  const number = z.coerce.number({ error: rule }).int({ error: rule }).min(min, { error: rule });
  return max === undefined ? number : number.max(max, { error: rule });
};

export const count = (fallback: number, min = 1, max?: number) => wholeNumber(min, max).optional().default(fallback);

export const fraction = (fallback: number) => {
  const rule = 'must be a number from 0 to 1';
  return z.coerce.number({ error: rule }).min(0, { error: rule }).max(1, { error: rule }).optional().default(fallback);
};
