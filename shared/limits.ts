/**
 * Every limit felt puts on the files it reads (issue 15), in one place and
 * stated in README.md, "Limits". Content comes from an LLM, from whoever can
 * write to the buckets and from operators' hands: whatever a file holds, it
 * costs a bounded amount of time and memory. Each limit is far above what
 * real content needs, and is checked before the work it bounds: a file's
 * size before it is read, nesting before anything recurses into it.
 */

const KB = 1024;
const MB = 1024 * KB;

export const LIMITS = {
  /** One article (content/articles/{locale}/*.md): frontmatter and markdown. */
  articleBytes: 1 * MB,
  /** One info page (content/pages/{ui}/*.md). */
  infoPageBytes: 1 * MB,
  /** The frontmatter block of an article or info page: a real one is under 2 KB. */
  frontmatterBytes: 64 * KB,
  /** site.json, categories.json and authors.json, each. */
  settingsBytes: 1 * MB,
  /** ads.json: every page's sponsored links. */
  adsBytes: 4 * MB,
  /** One ad snippet: sapeNewUrl (on every page) or one entry of sapeLinks. */
  adSnippetBytes: 8 * KB,
  /** One article's cover picture in a bucket (images/{locale}/{slug}.png): a generated one is 1-3 MB. */
  pictureBytes: 16 * MB,
  /**
   * One retraction record (retracted/{locale}/{slug}.json), in the production bucket and in content/retracted/:
   * felt retract writes a title of at most 200 characters, a reason of 10,000, a name of 200 and a redirect of
   * 2,000: 33 KB (33,542 bytes) when every character of the title, the reason and the name takes three bytes in UTF-8.
   */
  retractionBytes: 64 * KB,
  /**
   * One of felt's own records in a bucket: the publish record (felt/publish-record.json), a state snapshot's
   * manifest (state/articles-{locale}.json), a batch record (batches/{id}.json). The publish record is the largest:
   * written as publish writes it, at 100,000 articles each with its cover picture it is 37 MB with 90-character slugs
   * (the longest generate makes) and 58 MB with 200-character ones (the longest allowed). A batch record of
   * 50,000 requests (the most an OpenAI batch takes) is 7 MB; a manifest is under 1 KB.
   */
  stateRecordBytes: 128 * MB,
  /**
   * One answer of the model's chat API (its whole JSON, read as it comes): an article at the longest a locale's rules
   * allow is about 20 KB of it. An endpoint that streamed 60 MB was read whole (6.9 s and 390 MB) before the checks
   * refused its title; past this the answer is dropped as it arrives.
   */
  answerBytes: 4 * MB,
  /** A slug (articles, categories, authors, the brand): it names a file or folder, and a file name has at most 255 bytes. */
  slugChars: 200,
  /** A text field (a title, a tagline, a biography): the site's title is on every page, several times. */
  textChars: 10_000,
  /**
   * Values in one JSON file, keys included (ads.json of 4 MB holds about 40,000): validation makes
   * a problem of each wrong one, up to five for an empty author, and a million of them took 1.2 GB.
   */
  jsonValues: 50_000,
  /** Lists and objects inside each other, in JSON and in YAML: real files need under 10. */
  nestingDepth: 64,
  /** Aliases (*name) resolved in one YAML document, nested expansion counted: what stops a "billion laughs". */
  yamlAliases: 50,
  /** Problems listed for one file; the rest are counted in one line, so a file of a million bad keys prints a screenful. */
  problemsPerFile: 100,
} as const;

/** The largest file felt reads as content: what a second read of an already accepted file is bounded by. */
export const MAX_INPUT_BYTES = Math.max(LIMITS.articleBytes, LIMITS.infoPageBytes, LIMITS.settingsBytes, LIMITS.adsBytes);

/** A size as a message shows it: "512 bytes", "64 KB", "50.3 MB" (1 KB = 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < KB) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < MB) return `${Number((bytes / KB).toFixed(1))} KB`;
  return `${Number((bytes / MB).toFixed(1))} MB`;
}

/** What a refusal for size says, naming both sizes: "is 50.3 MB, larger than the limit of 4 MB". */
export function tooLarge(bytes: number, limit: number): string {
  let [size, most] = [formatBytes(bytes), formatBytes(limit)];
  // Just over the limit both round alike ("1 MB, larger than … 1 MB"): then in bytes.
  if (size === most) [size, most] = [`${bytes.toLocaleString('en')} bytes`, `${limit.toLocaleString('en')} bytes`];
  return `is ${size}, larger than the limit of ${most}`;
}

/** The hint of every refusal for a limit. */
export const LIMIT_HINT = 'see README, "Limits"';
