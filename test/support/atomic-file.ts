/**
 * Files that test apps' handlers write for the test to read. Duplicate
 * executions of one invocation run a handler concurrently (at least once),
 * and the test polls while they write: a file written in place can be read
 * half-written. Renaming a complete file into place makes each read see a
 * whole file; the temporary name starts with a dot, so no test's prefix
 * matches it.
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

export function writeFileAtomically(file: string, text: string): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}
