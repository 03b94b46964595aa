/**
 * felt's code version names the versions of its dependencies: from package-lock.json in a checkout, and from what is
 * installed in a felt installed from npm, which never packs the lock (a build there used to stop with ENOENT).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dependencyFingerprint } from '../../site/build/codeVersion.ts';
import { FELT_ROOT } from '../../shared/paths.ts';
import { tempDir } from './helpers.ts';

describe("felt's dependencies in its code version", () => {
  it('are the installed versions when there is no package-lock.json, and the lock when there is one', async () => {
    const root = await tempDir();
    writeFileSync(
      path.join(root, 'package.json'),
      JSON.stringify({ name: 'felt', dependencies: { react: '^18', 'jsonc-parser': '^3', 'not-installed-anywhere': '1' } }),
    );
    mkdirSync(path.join(root, 'lib'));
    symlinkSync(path.join(FELT_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    const installed = createRequire(path.join(FELT_ROOT, 'package.json'));
    const react = (installed('react/package.json') as { version: string }).version;

    const fingerprint = dependencyFingerprint(root);
    expect(fingerprint.split('\n')).toEqual([
      'jsonc-parser@' + (installed('jsonc-parser/package.json') as { version: string }).version,
      'not-installed-anywhere@?',
      `react@${react}`,
    ]);

    writeFileSync(path.join(root, 'package-lock.json'), '{"lockfileVersion":3}');
    expect(dependencyFingerprint(root)).toBe('{"lockfileVersion":3}');
  });
});
