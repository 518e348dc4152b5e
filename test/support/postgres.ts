/**
 * A real PostgreSQL for tests, the fault campaign, the benchmarks and the demo
 * (issue 17): the server installed on the machine (PostgreSQL 15 at
 * /usr/lib/postgresql/15/bin, or UNUM_PG_BIN), a fresh cluster in a temporary
 * directory on a free port, stopped and removed afterwards. PostgreSQL
 * refuses to run as root, so as root the cluster belongs to, and runs as, the
 * `postgres` user.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Pool } from 'pg';

/** Where the server's programs are, read when used (a test may point it elsewhere). */
const bin = (): string => process.env.UNUM_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const OWNER = 'postgres';

export interface TestPostgres {
  readonly port: number;
  /** The test database's connection string (`pg`'s `connectionString`). */
  readonly url: string;
  /** A new pool on the test database (ended with the server). */
  pool(max?: number): Pool;
  /** A server crash: an immediate stop (no shutdown checkpoint, open transactions lost) and a start, which recovers from the WAL. */
  crashRestart(): Promise<void>;
  /**
   * SIGKILL of one backend: the postmaster resets every session and recovers
   * from the WAL without restarting itself (a crash-restart). Resolves once
   * the server takes connections again.
   */
  killBackend(pid: number): Promise<void>;
}

export interface StartedPostgres extends TestPostgres {
  /** Ends the pools, stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** Why no PostgreSQL can be started here, or undefined when one can. */
export function postgresMissing(): string | undefined {
  const missing = ['initdb', 'pg_ctl'].filter((p) => !fs.existsSync(path.join(bin(), p)));
  return missing.length === 0 ? undefined : `PostgreSQL is not installed here: no ${missing.join(' or ')} in ${bin()} (install PostgreSQL 13+, or set UNUM_PG_BIN to the directory holding initdb and pg_ctl)`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a server program, as the `postgres` user when we are root. */
function asOwner(program: string, args: readonly string[]): void {
  const file = path.join(bin(), program);
  if (process.getuid?.() === 0) {
    const quoted = [file, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    execFileSync('su', [OWNER, '-s', '/bin/sh', '-c', quoted], { stdio: 'pipe' });
  } else {
    execFileSync(file, args, { stdio: 'pipe' });
  }
}

/** Starts a throwaway server; throws `postgresMissing()`'s reason when there is none to start. */
export async function startPostgres(): Promise<StartedPostgres> {
  const missing = postgresMissing();
  if (missing) throw new Error(missing);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-pg-'));
  const data = path.join(dir, 'data');
  const pools: Pool[] = [];
  try {
    if (process.getuid?.() === 0) execFileSync('chown', [OWNER, dir]);
    const port = await freePort();
    asOwner('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    // Every warm sandbox of a function holds its pool's connections: room for the local engine's 64.
    const start = (): void =>
      asOwner('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`, 'start']);
    start();
    const accepting = async (): Promise<void> => {
      for (let tries = 0; ; tries++) {
        const probe = new Pool({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max: 1 });
        try {
          await probe.query('SELECT 1');
          return;
        } catch (e) {
          if (tries > 300) throw e;
          await new Promise((resolve) => setTimeout(resolve, 100));
        } finally {
          await probe.end().catch(() => undefined);
        }
      }
    };
    return {
      port,
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      async crashRestart() {
        asOwner('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        start();
        await accepting();
      },
      async killBackend(pid) {
        process.kill(pid, 'SIGKILL');
        // The postmaster needs a moment to notice and begin its reset: until then the old server still answers.
        for (let tries = 0; tries < 100; tries++) {
          const log = fs.readFileSync(path.join(dir, 'log'), 'utf8');
          const killed = log.indexOf(`(PID ${pid}) was terminated by signal 9`);
          if (killed >= 0 && log.slice(killed).includes('ready to accept connections')) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await accepting();
      },
      pool(max = 10) {
        const pool = new Pool({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max });
        // A connection killed on purpose (a simulated crash) is reported on the pool; it is expected.
        pool.on('error', () => undefined);
        pools.push(pool);
        return pool;
      },
      async stop() {
        // A pool waits for the connections it lent; one a failed test never gave back must not keep the server up.
        const lent = (pool: Pool): Promise<unknown> => Promise.race([pool.end().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
        await Promise.all(pools.map(lent));
        try {
          asOwner('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** A server for a test file: started before its tests, stopped after them. */
export function usePostgres(): TestPostgres {
  let server: StartedPostgres | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  }, 60_000);
  const started = (): StartedPostgres => {
    if (!server) throw new Error('PostgreSQL is not started yet: use it inside tests');
    return server;
  };
  return {
    get port() {
      return started().port;
    },
    get url() {
      return started().url;
    },
    pool: (max) => started().pool(max),
    crashRestart: () => started().crashRestart(),
    killBackend: (pid) => started().killBackend(pid),
  };
}
