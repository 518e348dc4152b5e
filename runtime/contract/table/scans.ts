/** What a table summary projects on. */
import { PK } from './encoding';

/** The attributes that tell an item's kind and state (a table summary projects on them). */
export const SUMMARY_ATTRIBUTES: readonly string[] = [PK, 'a', 'n', 'status'];
