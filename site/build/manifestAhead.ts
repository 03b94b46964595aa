/**
 * The served release's manifest, read before the build knows its output layout (output.ts prepareOutput), while
 * this thread would otherwise wait (loadContent's `beside`). It is used only if it is the manifest of the release
 * the layout then names as current; otherwise that one is read as before.
 */
import { realpathSync } from 'node:fs';
import { readManifest, type BuildManifest } from './buildCache.ts';

export interface ManifestAhead {
  /** The release outDir led to when it was read, its links resolved. */
  release: string;
  manifest: BuildManifest | undefined;
}

export function readManifestAhead(outDir: string): ManifestAhead | undefined {
  const release = resolved(outDir);
  return release === undefined ? undefined : { release, manifest: readManifest(release) };
}

/** The manifest of `current` (the layout's served release): the one read ahead if it is that release's. */
export function servedManifest(current: string, ahead: ManifestAhead | undefined): BuildManifest | undefined {
  return ahead && ahead.release === resolved(current) ? ahead.manifest : readManifest(current);
}

function resolved(folder: string): string | undefined {
  try {
    return realpathSync(folder);
  } catch {
    return undefined;
  }
}
