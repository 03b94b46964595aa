/**
 * What `felt dev` watches: content, UI strings and prompts (a change
 * rebuilds) and felt's own code (a change restarts). chokidar, not
 * fs.watch({ recursive: true }): after a file is replaced by a rename, which
 * is how the title editor and most editors save, Node's recursive watcher
 * reports nothing more about it (issue 16: six saves, one rebuild); chokidar
 * watches each folder and keeps watching a file whatever replaces it.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { FELT_ROOT, LOCALES_DIR, PROMPTS_DIR } from '../../shared/paths.ts';

/** Editors' scratch and backup files, and felt's own half-written ones (….tmp): never content. */
const SCRATCH_FILE = /\.tmp$|~$|\.swp$/;
/** Read from disk on every request: editing it needs no restart. */
const DEV_CLIENT = path.join(FELT_ROOT, 'site', 'dev', 'client.js');
const CODE_FILE = /\.(tsx?|css|js)$/;

export interface SourceHandlers {
  onContent: () => void;
  onCode: () => void;
  onError: (error: unknown) => void;
}

export interface SourceWatchers {
  close(): Promise<void>;
}

/**
 * Calls `onChange` when a file may hold something new: its inode, size or
 * modification time differ from the last look, or it appeared or went. The
 * build reading a file changes its access time, which the file system reports
 * too; that alone must not start another rebuild (and reload the page under
 * the writer's cursor).
 */
function changedFiles(onChange: () => void): (file: string) => Promise<void> {
  const seen = new Map<string, string>();
  return async (file) => {
    const info = await stat(file).catch(() => undefined);
    const signature = info ? `${info.ino}:${info.size}:${info.mtimeMs}` : 'gone';
    if (seen.get(file) === signature) return;
    seen.set(file, signature);
    onChange();
  };
}

/** The file a raw event is about: a folder's watcher names an entry of it, a file's watcher the file itself. */
function rawEventFile(name: string | undefined, details: unknown): string | undefined {
  const watched = (details as { watchedPath?: string } | undefined)?.watchedPath;
  if (!watched) return undefined;
  return !name || path.basename(watched) === name ? watched : path.join(watched, name);
}

/** Starts both watchers; resolves once they have seen every file, so a save right after counts. */
export async function watchSources(contentDir: string, handlers: SourceHandlers): Promise<SourceWatchers> {
  const content = watch([contentDir, LOCALES_DIR, PROMPTS_DIR], { ignoreInitial: true, ignored: (file) => SCRATCH_FILE.test(file) });
  const changed = changedFiles(handlers.onContent);
  // chokidar drops a 'change' that comes within 50 ms of the last one for the
  // same file, with no later event: a fix saved right after a mistake would go
  // unseen. So its raw events, one per event of the file system, are looked at
  // too, and its own events for what only its folder scans find (files written
  // into a folder before it was watched).
  content.on('raw', (_event, name, details) => {
    const file = rawEventFile(name, details);
    if (file && !SCRATCH_FILE.test(file)) void changed(file);
  });
  content.on('all', (_event, file) => void changed(file));

  const code = watch(
    ['site', 'cli', 'shared'].map((dir) => path.join(FELT_ROOT, dir)),
    { ignoreInitial: true },
  );
  code.on('all', (_event, file) => {
    if (CODE_FILE.test(file) && file !== DEV_CLIENT) handlers.onCode();
  });

  const watchers: FSWatcher[] = [content, code];
  for (const watcher of watchers) watcher.on('error', handlers.onError);
  await Promise.all(watchers.map((watcher) => new Promise<void>((resolve) => watcher.once('ready', () => resolve()))));
  return { close: async () => void (await Promise.all(watchers.map((watcher) => watcher.close()))) };
}
