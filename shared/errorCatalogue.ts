/**
 * Every failure felt expects, by code (issue 11). An entry says what happened
 * in general (title) and what to do about it (the default hint); a call site
 * adds the particulars (message, file, field) and may give a sharper hint.
 * ErrorCode is derived from the keys, so `new FeltError('NO_SUCH_CODE', …)`
 * does not compile, and a code means one thing wherever it is thrown.
 * Shaped after Astro's errors-data.ts ({ title, message, hint }), kept to
 * short lowercase phrases because the CLI prints one line: "message. hint".
 */
import { LIMIT_HINT } from './limits.ts';

export interface ErrorEntry<Code extends string = string> {
  code: Code;
  title: string;
  /** Builds the message from the particulars, for codes raised in one place with one wording. */
  message?: (...particulars: never) => string;
  hint: string;
}

/** For failures of the machine: what went wrong, and the stage felt was in when it did. */
const whileIn = (what: string, stage?: string) => (stage ? `${what} (while ${stage})` : what);

const entries = {
  // The command line and its runs
  BAD_OPTION: { title: 'A flag has a value felt cannot use', hint: 'see `felt <command> --help` for the flags and their values' },
  CONFIRMATION_REQUIRED: { title: 'Writing production needs confirmation', hint: 'check the plan above and rerun with --yes' },
  NOT_CONFIRMED: { title: 'The plan was not confirmed', hint: 'run the command again when the plan is right' },
  INTERRUPTED: { title: 'Interrupted', hint: 'run the same command again to write only what is missing' },
  INCOMPLETE: { title: 'Some items failed', hint: 'fix the cause and run the same command again; finished work is kept' },
  BUDGET_REACHED: {
    title: 'The run reached its budget',
    hint: 'raise --max-cost (or generation.budget in content/site.json), or run the same command tomorrow',
  },
  PROVIDER_OUTAGE: { title: 'The LLM provider kept failing', hint: 'run the same command again when the provider answers; stored articles are kept' },
  BATCH_PENDING: { title: 'A batch of this run is not collected yet', hint: 'run felt generate --collect (or wait for the batch), then run this again' },

  // Content, UI strings, generation rules and prompts (felt's own input files)
  CONTENT_MISSING: { title: 'No content folder', hint: 'run felt in the folder that holds content/, or name it with --content' },
  // One code for "the files listed above have errors", from a build's loading and from `felt check` alike (was also CHECK_FAILED).
  CONTENT_INVALID: { title: 'Content has errors', hint: 'fix the files listed above and run the command again' },
  ARTICLE_VANISHED: { title: 'An article disappeared during the build', hint: 'do not move or delete articles during a build; run it again' },
  CATEGORY_WITHOUT_OTHER: { title: 'A category has no "other" subcategory', hint: 'add one, or pass --subcategory' },
  LOCALE_MISSING: { title: 'A UI strings file is missing', hint: 'restore locales/en.json: every UI string comes from it' },
  LOCALE_INVALID: { title: 'A UI strings file is not valid', hint: 'fix each line named: every value is a UI string in double quotes' },
  RULES_UNREADABLE: { title: 'The generation rules cannot be read', hint: 'restore locales/generation from the repository' },
  RULES_INVALID: { title: 'The generation rules are invalid', hint: 'fix the field named in locales/generation/' },
  PROMPT_MISSING: { title: 'A prompt template is missing', hint: 'restore it from the repository (see prompts/README.md)' },
  PROMPT_PLACEHOLDER: { title: 'A prompt placeholder has no value', hint: 'fix the template in prompts/ (see prompts/README.md for the names)' },

  // The dev server's title editor
  BAD_SLUG: { title: 'Not an article slug', hint: 'a slug is lowercase letters, digits and hyphens' },
  // Was EMPTY_TITLE and LONG_TITLE: the same fix, a title of the right length.
  TITLE_INVALID: { title: 'The title cannot be used', hint: 'give a title of 1 to 200 characters on one line, without control characters' },
  NO_ARTICLE: { title: 'No article has that slug', hint: 'reload the page: the article may have been renamed or deleted' },
  // Was also NO_FRONTMATTER: either way the editor finds no title line and the file needs a hand edit.
  NO_TITLE_LINE: { title: 'The article has no title line to edit', hint: 'edit the file by hand: its frontmatter needs a "title:" line' },

  // Building, serving and deploying the site
  PAGE_NOT_SERIALIZABLE: { title: 'Page data is not plain JSON', hint: 'page data must be plain JSON: strings, numbers, booleans, arrays and plain objects' },
  ASSETS_FAILED: { title: 'Bundling the browser code failed', hint: 'fix the error in site/client or site/styles' },
  PICTURE_INVALID: { title: 'A cover picture cannot be read', hint: 'replace it with a PNG, or delete it to show the generated cover' },
  // Was also NOTHING_TO_SERVE: deploy and serve both need a built site.
  DIST_MISSING: { title: 'No built site', hint: 'run felt build first' },
  PORT_IN_USE: { title: 'The port is in use', hint: 'choose another with --port, or stop the other server' },

  // Storage
  BUCKET_MISSING: { title: 'The bucket does not exist', hint: 'check --storage and storage.prefix in content/site.json' },
  NOT_IN_DEV: { title: 'Not in the dev bucket', hint: 'check the slugs and --locale' },
  NOT_IN_PRODUCTION: { title: 'Not in the production bucket', hint: 'check the slug and --locale (felt pull --dry-run lists what production holds)' },
  ARTICLE_NOT_FOUND: { title: 'No article has that slug', hint: 'check the slug and --locale (felt pull --env dev shows what the dev bucket holds)' },
  NO_SUCH_VERSION: { title: 'No such version of the article', hint: 'the versions kept are listed above; pick one of them' },
  STORAGE_DENIED: {
    title: 'Storage refused the credentials',
    hint: 'check the Google credentials (GOOGLE_APPLICATION_CREDENTIALS or gcloud auth application-default login) and the bucket permissions',
  },
  STORAGE_FAILED: { title: 'A storage call failed', hint: 'check the network and STORAGE_EMULATOR_HOST or the storage endpoint' },
  STORAGE_UNAVAILABLE: { title: 'Storage is unavailable for now', hint: 'it was retried; run the same command again later, finished work is kept' },
  EMPTY_LISTING: {
    title: 'The bucket lists no articles, and --delete would remove every local one',
    hint: 'check the bucket and --env (an empty or wrong bucket, a proxy answering for it); rerun with --yes if it really is empty',
  },
  TOO_MANY_DELETIONS: { title: 'A deletion would empty much of a bucket', hint: 'check --dist and the bucket, then rerun with --yes or a larger --max-delete' },
  PUBLISH_RECORD_INVALID: {
    title: 'The publish record cannot be read',
    hint: 'restore it, or delete it to start a new record (production changes made before are then not detected)',
  },
  OBJECT_TOO_LARGE: { title: 'An object is larger than felt reads', hint: `replace or remove the object in the bucket (${LIMIT_HINT})` },
  STORAGE_BAD_BUCKET: { title: 'Not a valid bucket name', hint: 'use lowercase letters, digits, dots, hyphens and underscores' },
  STORAGE_BAD_NAME: {
    title: 'Not an object name the bucket accepts',
    hint: 'object names are paths inside the bucket: no "..", no leading "/", no backslashes',
  },
  STORAGE_PRECONDITION_FAILED: {
    title: 'An object changed since it was read',
    hint: 'someone else wrote it meanwhile; run the command again to see the new plan',
  },
  STORAGE_NOT_FOUND: { title: 'No such object', hint: 'check the name, the bucket and --storage' },
  STATE_UNUSABLE: {
    title: "The bucket's state snapshot cannot be used",
    hint: 'downloading the articles one by one instead; the next `felt pull --snapshot` rewrites it',
  },

  // The LLM
  LLM_NOT_CONFIGURED: {
    title: 'No API key for the LLM',
    hint: 'export OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server that needs no key, or use --dry-run',
  },
  LLM_DENIED: { title: 'The LLM endpoint refused the API key', hint: 'check OPENAI_API_KEY' },
  LLM_NOT_FOUND: { title: 'The LLM endpoint has no such model or path', hint: 'check --model and OPENAI_BASE_URL (it usually ends in /v1)' },
  LLM_FAILED: { title: 'An LLM call failed', hint: 'check the network and OPENAI_BASE_URL, then run the command again' },
  LLM_UNREACHABLE: {
    title: 'Nothing listens at the LLM endpoint',
    hint: 'start the model server, or point OPENAI_BASE_URL at the one that runs; then run the same command again',
  },

  // The machine: raised by stage boundaries (shared/stageErrors.ts) around what the OS refused
  DISK_FULL: { title: 'The disk is full', message: whileIn, hint: 'free some space and run the command again; nothing already in place was changed' },
  NO_PERMISSION: { title: 'Permission denied', message: whileIn, hint: 'check who owns the file or folder, or choose another' },
  READ_ONLY: { title: 'The file system is read-only', message: whileIn, hint: 'make the disk writable again, or choose a folder on a writable disk' },
  // Only where the path was the operator's to name (the content folder, --out): elsewhere a missing file is a bug.
  BAD_PATH: { title: 'A file or folder is missing or of the wrong kind', message: whileIn, hint: 'check the path' },
} satisfies Record<string, Omit<ErrorEntry, 'code'>>;

type Entries = typeof entries;
export type ErrorCode = keyof Entries;

function withCodes(list: Entries): { [Code in ErrorCode]: Entries[Code] & { code: Code } } {
  return Object.fromEntries(Object.entries(list).map(([code, entry]) => [code, { code, ...entry }])) as never;
}

export const errorCatalogue = withCodes(entries);

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(errorCatalogue, value);
}
