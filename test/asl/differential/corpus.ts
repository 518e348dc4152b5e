/**
 * The differential corpus: every ASL document in documents/, imported with
 * `fromAsl` for unum, and what each Task calls (function name, and whether it
 * is the `lambda:invoke` integration) for the peer interpreter's handlers.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Definition } from '../../../lib/definition';
import { fromAsl } from '../../../lib/asl';

export const DOCUMENTS = path.join(__dirname, 'documents');
export const HANDLERS = path.join(__dirname, 'handlers.ts');

/** The function a Task state calls, as the importer resolved it. */
export interface TaskTarget {
  readonly functionName: string;
  readonly lambdaInvoke: boolean;
}

export interface CorpusDocument {
  /** The file name without `.asl.json`: the workflow name. */
  readonly name: string;
  readonly asl: Record<string, unknown>;
  readonly definition: Definition;
  /** Task state name -> its function (state names are unique in each document). */
  readonly tasks: Readonly<Record<string, TaskTarget>>;
}

export const documentFiles = (): string[] => fs.readdirSync(DOCUMENTS).filter((f) => f.endsWith('.asl.json')).sort();

/** Every document, its Tasks given `environment` (the handlers read settings from it). */
export function loadCorpus(environment: Readonly<Record<string, string>>): CorpusDocument[] {
  return documentFiles().map((file) => {
    const name = file.replace(/\.asl\.json$/, '');
    const asl = JSON.parse(fs.readFileSync(path.join(DOCUMENTS, file), 'utf8')) as Record<string, unknown>;
    const tasks: Record<string, TaskTarget> = {};
    const definition = fromAsl(asl, {
      workflowName: name,
      defaultTask: (t) => {
        if (tasks[t.state]) throw new Error(`${file}: two Task states are named '${t.state}'`);
        tasks[t.state] = { functionName: t.functionName, lambdaInvoke: t.resource === 'arn:aws:states:::lambda:invoke' };
        return { entry: HANDLERS, handler: t.functionName, environment: { ...environment } };
      },
    });
    return { name, asl, definition, tasks };
  });
}
