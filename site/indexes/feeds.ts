/** RSS 2.0 feeds: one for the site, one per category, the newest articles first. */
import { escapeXml } from './xml.ts';

export const FEED_SIZE = 20;

export interface FeedItem {
  title: string;
  url: string;
  description: string;
  date: string;
  author: string;
  categories: string[];
}

export interface FeedInput {
  title: string;
  description: string;
  siteUrl: string;
  feedUrl: string;
  language: string;
  items: FeedItem[];
  now: Date;
}

function rfc822(iso: string): string {
  return new Date(`${iso}T00:00:00Z`).toUTCString();
}

export function renderRss(feed: FeedInput): string {
  const items = feed.items.slice(0, FEED_SIZE).map(
    (item) => `<item>
<title>${escapeXml(item.title)}</title>
<link>${escapeXml(item.url)}</link>
<guid isPermaLink="true">${escapeXml(item.url)}</guid>
<description>${escapeXml(item.description)}</description>
<pubDate>${rfc822(item.date)}</pubDate>
<dc:creator>${escapeXml(item.author)}</dc:creator>
${item.categories.map((c) => `<category>${escapeXml(c)}</category>`).join('\n')}
</item>`,
  );
  const latest = feed.items[0]?.date;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>
<title>${escapeXml(feed.title)}</title>
<link>${escapeXml(feed.siteUrl)}/</link>
<description>${escapeXml(feed.description)}</description>
<language>${escapeXml(feed.language)}</language>
<lastBuildDate>${latest ? rfc822(latest) : feed.now.toUTCString()}</lastBuildDate>
<atom:link href="${escapeXml(feed.feedUrl)}" rel="self" type="application/rss+xml"/>
${items.join('\n')}
</channel>
</rss>
`;
}
