/**
 * Synchronous file writing for render workers: a worker does one thing at a
 * time, and sync calls skip the promise and thread-pool round trips that
 * dominated the build's profile (20,000+ small files at 10,000 articles).
 * It writes only into a folder no one serves: a full build's staging folder,
 * or a release being made from an older one (commit.ts). That release
 * shares files with the served one by hard links, so there a shared file is
 * replaced, never written in place (swapFaults.ts, makeWayForFile).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../shared/insideFolder.ts';
import type { DrawnCover } from '../pictures/drawnCovers.ts';
import { makeFolders, makeFoldersOver, makeWayForFile } from './swapFaults.ts';

/** Where a build's files go: a folder on disk, or memory for tests (Eleventy's executeBuild("json")). */
export interface OutputSink {
  write(relative: string, content: string | Uint8Array): void;
  /**
   * Draws these SVG covers and writes their files on the sink's own thread (threadSink.ts), where a sink without
   * this method is given each cover's file, drawn by the thread that renders (renderBatch.ts).
   */
  drawCovers?(covers: readonly DrawnCover[]): void;
  /** Resolves once every file written is on disk (a sink that writes on another thread, threadSink.ts). */
  close?(): Promise<void>;
}

/** Folders a FileSink remembers having made. */
const FOLDERS_REMEMBERED = 4096;

/** Where a FileSink writes, and whether it holds an older release's files (some linked to a served release's). */
export interface SinkFolder {
  dir: string;
  replace?: boolean;
}

export class FileSink implements OutputSink {
  private readonly folders = new Set<string>();
  private readonly root: string;
  private readonly replace: boolean;

  constructor({ dir, replace = false }: SinkFolder) {
    this.root = path.resolve(dir);
    this.replace = replace;
  }

  write(relative: string, content: string | Uint8Array): void {
    const target = path.join(this.root, relative);
    if (!isInside(target, this.root)) throw new Error(`refusing to write outside the output folder: ${relative}`);
    const folder = path.dirname(target);
    if (!this.folders.has(folder)) {
      if (this.replace) makeFoldersOver(folder, this.root);
      else makeFolders(folder);
      // Most folders get one page's files and are never asked for again: the set is forgotten now and then rather
      // than kept for every page of the site (200,000 paths at 100,000 articles); a folder made again costs a mkdir.
      if (this.folders.size >= FOLDERS_REMEMBERED) this.folders.clear();
      this.folders.add(folder);
    }
    // A hard link to the served release's file is unlinked first: writing into it would change the served site.
    if (this.replace) makeWayForFile(target);
    writeFileSync(target, content);
  }
}

/** Keeps every file in memory, keyed by its path relative to the site's root. */
export class MemorySink implements OutputSink {
  readonly files = new Map<string, string | Uint8Array>();

  write(relative: string, content: string | Uint8Array): void {
    this.files.set(relative, content);
  }
}
