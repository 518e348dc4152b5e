/**
 * Function references as the Lambda Invoke API takes them (a name, a partial
 * ARN `<account>:function:<name>` or an ARN), with or without a qualifier:
 * every invocation of a run names its deployment's alias, so the client
 * splits and rebuilds qualified references instead of reaching `$LATEST`.
 */

/** Colon-separated parts of an unqualified reference, by its form. */
const UNQUALIFIED_PARTS = { arn: 7, partial: 3, name: 1 } as const;

/** `ref` without its qualifier, and the qualifier (`$LATEST`, a version or an alias) when it has one. */
export function splitFunctionRef(ref: string): { readonly function: string; readonly qualifier?: string } {
  const parts = ref.split(':');
  const form = ref.startsWith('arn:') ? 'arn' : parts[1] === 'function' ? 'partial' : 'name';
  const length = UNQUALIFIED_PARTS[form];
  if (parts.length <= length) return { function: ref };
  return { function: parts.slice(0, length).join(':'), qualifier: parts.slice(length).join(':') };
}
