/**
 * The optional corpus: ASL documents kept outside the repository, which the
 * project does not ship (the unum-appstore definitions carry no license).
 * Where it is found, tests ADD cases named "optional corpus"; every test of
 * the project passes without it, on the documents of test/asl/fixtures.
 * `UNUM_CORPUS_DIR` names the corpus folder; by default `../shared/corpus`
 * beside the repository. Its `unum-appstore` folder holds the documents.
 */
import * as fs from 'fs';
import * as path from 'path';

const REPOSITORY = path.join(__dirname, '..', '..');

export const CORPUS_DIR = process.env.UNUM_CORPUS_DIR ?? path.join(REPOSITORY, '..', 'shared', 'corpus');
export const APPSTORE_DIR = path.join(CORPUS_DIR, 'unum-appstore');

/** The appstore's ASL files, sorted; none where the corpus is absent. */
export function appstoreFiles(): string[] {
  return fs.existsSync(APPSTORE_DIR) ? fs.readdirSync(APPSTORE_DIR).filter((f) => f.endsWith('.json')).sort() : [];
}

export const readAppstore = (file: string): string => fs.readFileSync(path.join(APPSTORE_DIR, file), 'utf8');

/** A test title as an optional corpus case. */
export const optionalCase = (title: string): string => `optional corpus case: ${title}`;
