// handlers.ts: handlers of the writing-workflows examples (the workflows name more exports than
// this file has: a definition compiles without its handlers; the construct checks them at synth).
// #region typed-handler
import type { FoldHandler, Handler } from 'unum-cdk';

export const resize: Handler<{ key: string }, { thumb: string }> = async ({ key }) => ({ thumb: `${key}.thumb.jpg` });
// #endregion

// #region fold-handler
export const concat: FoldHandler<string[], string> = (acc, chunkKey) => [...acc, chunkKey];
// #endregion
