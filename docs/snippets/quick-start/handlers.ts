// handlers.ts: the code of the workflow's three steps, plain async functions.
import type { Handler } from 'unum-cdk';

export const split: Handler<{ text: string }, { words: string[] }> = async ({ text }) => ({ words: text.split(/\s+/).filter(Boolean) });
export const shout: Handler<string, string> = async (word) => word.toUpperCase();
export const join: Handler<string[], { shouted: string; count: number }> = async (words) => ({ shouted: words.join(' '), count: words.length });
