/** States.MathAdd: the sum of two integers in Step Functions' 32-bit range. */
import type { Json } from '../../contract/ir';
import type { IntrinsicFunction } from './signature';

const INT32 = [-(2 ** 31), 2 ** 31 - 1] as const;
const int32 = (v: Json): string | undefined => ((v as number) < INT32[0] || (v as number) > INT32[1] ? `must be between ${INT32[0]} and ${INT32[1]}` : undefined);

export const MATH_FUNCTIONS: Readonly<Record<string, IntrinsicFunction>> = {
  'States.MathAdd': {
    params: [
      { name: 'first number', type: 'integer', check: int32 },
      { name: 'second number', type: 'integer', check: int32 },
    ],
    returns: 'integer',
    run: ([a, b]) => (a as number) + (b as number),
  },
};
