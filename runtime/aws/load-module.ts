/** Loads a module at run time rather than bundling it: SDK clients the Lambda runtime provides. */
import { createRequire } from 'node:module';

export async function loadModule<T>(name: string): Promise<T> {
  // CommonJS resolution honours NODE_PATH, where Lambda keeps its SDK; import() is the fallback for ESM bundles.
  return (typeof __filename === 'string' ? createRequire(__filename)(name) : await import(name)) as T;
}
