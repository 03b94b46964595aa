/**
 * Dev and production content never share a folder (issue 17, item 2).
 * content/ holds production's articles (and the operator's own); articles
 * pulled from the dev bucket go to a sibling folder, `{content}.dev/`, which
 * holds articles only: it is never a site of its own, and no production
 * build reads it. `felt preview` is the one reader, and marks what it takes
 * from there, so a build always knows which environment an article came from.
 */
import path from 'node:path';

export type ArticleOrigin = 'production' | 'dev';

/** The folder `felt pull --env dev` writes to: content → content.dev, beside it. */
export function devContentDir(contentDir: string): string {
  const resolved = path.resolve(contentDir);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}.dev`);
}

/** Where a pull from `env` writes its articles/{locale}/ folders. */
export function contentDirFor(contentDir: string, env: 'dev' | 'prod'): string {
  return env === 'dev' ? devContentDir(contentDir) : path.resolve(contentDir);
}
