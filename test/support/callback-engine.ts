/**
 * A local engine on a test app whose callback handlers hand their task
 * tokens out through files in a directory (`CALLBACK_TOKENS`), for the engine
 * tests of callbacks and run control: started before the file's tests,
 * stopped and cleaned up after them.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { UnumClient } from '../../lib/client';
import { LocalEngine } from '../../lib/local/engine';
import { tokensHandedOut } from '../../lib/local/task-tokens';
import { engineDynamoDb } from './test-dynamodb';

export interface CallbackEngine {
  /** The started engine (inside tests only). */
  readonly engine: () => LocalEngine;
  /** Where the app was synthesized. */
  readonly outDir: string;
  /** The directory the handlers write tokens into. */
  readonly tokens: string;
  /** A client of `workflow` on the engine. */
  readonly client: (workflow: string) => UnumClient;
  /** The token run `id` handed out, as the engine saw its waiting record written: a source independent of the client. */
  readonly handedOut: (id: string) => Promise<string>;
}

export function useCallbackEngine(appDir: string, name: string, timeScale: number): CallbackEngine {
  let engine: LocalEngine | undefined;
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), `unum-${name}-`));
  const tokens = fs.mkdtempSync(path.join(os.tmpdir(), `unum-${name}-tokens-`));
  beforeAll(async () => {
    engine = await LocalEngine.fromApp(appDir, { outDir, timeScale, functionEnvironment: { CALLBACK_TOKENS: tokens }, ...engineDynamoDb() });
  });
  afterAll(async () => {
    await engine?.stop();
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.rmSync(tokens, { recursive: true, force: true });
  });
  const started = (): LocalEngine => {
    if (!engine) throw new Error('the engine is not started yet: use it inside tests');
    return engine;
  };
  const handedOut = async (id: string): Promise<string> => {
    for (let i = 0; i < 1200; i++) {
      const [token] = tokensHandedOut(started().traffic.of(id), started().app.functions);
      if (token !== undefined) return token;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`run ${id} handed out no task token`);
  };
  return { engine: started, outDir, tokens, handedOut, client: (workflow) => UnumClient.fromCloudAssembly(outDir, workflow, { localEngine: started().environment }) };
}
