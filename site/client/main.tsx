/**
 * The browser runtime's entry. The page arrives complete from the server;
 * this hydrates the interactive islands (header, copy buttons) with the
 * shared data of /page-data/sq/d/{hash}.json.
 */
import { hydrateRoot } from 'react-dom/client';
import { Header } from '../islands/Header.tsx';
import { CopyLink } from '../islands/CopyLink.tsx';
import type { StaticQueryData } from '../islands/types.ts';

async function loadStaticQuery(url: string): Promise<StaticQueryData> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`The static query file ${url} could not be loaded (${response.status})`);
  return (await response.json()) as StaticQueryData;
}

function hydrateCopyButtons(data: StaticQueryData, root: ParentNode = document): void {
  for (const island of root.querySelectorAll<HTMLElement>('[data-island="copy-link"]')) {
    const url = island.dataset.url;
    if (!url) continue;
    hydrateRoot(island, <CopyLink url={url} label={data.copy.copyLink} copied={data.copy.copied} prompt={data.copy.prompt} />);
  }
}

async function start(): Promise<void> {
  const header = document.getElementById('site-header');
  if (!header?.dataset.sq) return;
  const data = await loadStaticQuery(header.dataset.sq);
  hydrateRoot(header, <Header {...data.header} />);
  hydrateCopyButtons(data);
}

start().catch((error: unknown) => console.error(error));
