/** Runs a client command (`unum start|status|...|runs`) in-process, capturing what it writes. */
import { LOCAL_TABLE_PREFIX_VARIABLE } from '../../lib/assembly';
import { run, type CliIo } from '../../lib/cli/client';

export async function runClientCommand(argv: string[], stdin = '{}'): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: { write: (s: string) => { out += s; return true; } } as CliIo['stdout'],
    stderr: { write: (s: string) => { err += s; return true; } } as CliIo['stderr'],
    readStdin: () => stdin,
  };
  return { code: await run(argv, io), out, err };
}

/** Where a local engine answers: what `unum local start` prints for the client's SDK calls. */
export interface EngineEndpoints {
  readonly lambdaEndpoint: string;
  readonly dynamoEndpoint: string;
  /** The engine's SDK settings, for the prefix of its table names when it has one. */
  readonly environment: Readonly<Record<string, string>>;
}

/** The table prefix of an engine in a shared DynamoDB, as the variable the client reads it from. */
export function tablePrefixOf(engine: Pick<EngineEndpoints, 'environment'>): Record<string, string> {
  const prefix = engine.environment[LOCAL_TABLE_PREFIX_VARIABLE];
  return prefix === undefined ? {} : { [LOCAL_TABLE_PREFIX_VARIABLE]: prefix };
}

/** Runs a client command against a local engine, its endpoints in the environment as `unum local start` prints them. */
export async function runClientCommandOnEngine(engine: EngineEndpoints, argv: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const saved = { ...process.env };
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_LAMBDA: engine.lambdaEndpoint,
    AWS_ENDPOINT_URL_DYNAMODB: engine.dynamoEndpoint,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_REGION: 'us-east-1',
    ...tablePrefixOf(engine),
  });
  try {
    return await runClientCommand(argv, stdin);
  } finally {
    process.env = saved;
  }
}
