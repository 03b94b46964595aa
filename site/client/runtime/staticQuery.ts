/** The shared data of every page, /page-data/sq/d/{hash}.json (SPEC sections 7 and 8). */
import type { StaticQueryData } from '../../islands/types.ts';

export async function loadStaticQuery(url: string): Promise<StaticQueryData> {
  const response = await fetch(url, { credentials: 'same-origin' }).catch(() => undefined);
  if (!response?.ok) throw new Error(`felt: the static query file ${url} could not be loaded (${response?.status ?? 'network error'})`);
  return (await response.json()) as StaticQueryData;
}
