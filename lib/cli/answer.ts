/**
 * The commands that answer a waiting callback Task, as `unum status` and
 * `unum local run` print them: ready to copy into a shell, with the options
 * that find the same workflow.
 */

/** `arg` as one POSIX shell word: as it is when it is plain, else single-quoted. */
export function shellWord(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** `unum task-success` and `unum task-failure` for `token`, followed by `workflowArgs` (the options that find the workflow). */
export function answerCommands(token: string, workflowArgs: readonly string[]): string[] {
  const where = workflowArgs.map(shellWord).join(' ');
  const tail = where ? ` ${where}` : '';
  return [
    `unum task-success ${shellWord(token)} --output <result.json>${tail}`,
    `unum task-failure ${shellWord(token)} --error <Error> --cause <why>${tail}`,
  ];
}
