/**
 * Issue 17, item 2: dev and production content never share a folder. The
 * audit's night: `felt pull --env dev` to look at tomorrow's articles, then
 * `felt pull` (no --delete) and a production build. The dev-only article
 * must not reach the build, and the build says where its articles came from.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pull } from '../../../cli/pull.ts';
import { buildSiteInMemory } from '../../../site/build/build.ts';
import { devContentDir } from '../../../shared/contentOrigin.ts';
import { startFakeGcs, type FakeGcs } from '../../support/fakeGcs.ts';
import { fixtureCopy } from '../../site/helpers.ts';
import { articlePath, openBucket, putArticle, quiet, storageChoice } from './helpers.ts';

let gcs: FakeGcs;
beforeAll(async () => void (gcs = await startFakeGcs()));
afterAll(() => gcs.close());
beforeEach(() => gcs.buckets.clear());

describe.each(['local', 'gcs'] as const)('%s storage', (kind) => {
  it('pull --env dev writes to content.dev/, so a later pull and build publish no dev-only article', async () => {
    const contentDir = await fixtureCopy();
    const choice = storageChoice(kind, gcs);
    const prod = await openBucket(contentDir, choice, 'prod');
    const dev = await openBucket(contentDir, choice, 'dev');
    await putArticle(prod, 'river-bets', 'River Bets');
    await putArticle(dev, 'river-bets', 'River Bets');
    await putArticle(dev, 'unpublished-draft', 'Unpublished Draft');

    await pull({ contentDir, env: 'dev', storage: choice, reporter: quiet().reporter });
    expect(existsSync(articlePath(contentDir, 'unpublished-draft'))).toBe(false);
    expect(existsSync(articlePath(devContentDir(contentDir), 'unpublished-draft'))).toBe(true);

    await pull({ contentDir, storage: choice, reporter: quiet().reporter });
    expect(existsSync(articlePath(contentDir, 'river-bets'))).toBe(true);

    const site = await buildSiteInMemory({ contentDir });
    expect(site.files.has('articles/river-bets/index.html')).toBe(true);
    expect(site.files.has('articles/unpublished-draft/index.html')).toBe(false);
    expect(String(site.files.get('sitemap.xml'))).not.toContain('unpublished-draft');
    expect(site.origins).toEqual({ production: site.articles, dev: 0 });
  });
});
