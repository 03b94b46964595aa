/**
 * The generated cover of an article (issue 18 item 7): an SVG illustration
 * made from where the article is filed and a seed, and nothing else. The
 * category picks the colours and the motif (chips, cards, dice, a chart, a
 * target, a shield, a network), the subcategory the accent and the layout's
 * variant, the seed every position: one of the subcategory's variants
 * (drawnCovers.ts, and the share cards'), or the slug of an article filed
 * nowhere. No text: text would be rasterised with
 * whatever fonts the machine has, and the images must be the same bytes on
 * every machine and every run. Numbers are written with fixed decimals for
 * the same reason.
 *
 * Changing what this draws changes the cached images' bytes: bump ART_VERSION
 * (tests/site/pictures/coverArt.test.ts pins a fingerprint of the art so a
 * change cannot slip in without it). The images' cache key holds it.
 */
import { fnv1a } from '../../shared/hash.ts';

export const ART_VERSION = 2;

export interface CoverSubject {
  /** What the positions are seeded by: a variant's name (drawnCovers.ts, shareCards.ts), or the slug of an article filed nowhere. */
  slug: string;
  /** Category and subcategory keys (categories.json); absent when the article is filed nowhere. */
  category?: string;
  subcategory?: string;
}

interface Palette {
  /** Background, dark enough that the shapes read on it. */
  ground: string;
  deep: string;
  /** The motif's main colour. */
  light: string;
}

const PALETTES: Record<string, Palette> = {
  bettingStrategies: { ground: '#0d5c3f', deep: '#083d2a', light: '#e7f1ec' },
  pokerGuides: { ground: '#7a1b2a', deep: '#4f0f1a', light: '#f7e3e6' },
  gameRules: { ground: '#1f3a68', deep: '#132544', light: '#e3eaf6' },
  bettingTrends: { ground: '#45286f', deep: '#2c1848', light: '#ece4f7' },
  winningTips: { ground: '#7a5000', deep: '#4f3400', light: '#f8ecd2' },
  gamblingResponsible: { ground: '#2b5a5f', deep: '#1a3b3f', light: '#e0eff0' },
  communityInsights: { ground: '#8a3512', deep: '#5a210a', light: '#f8e6dc' },
};
const FALLBACK_PALETTES = Object.values(PALETTES);
const ACCENTS = ['#f4c95d', '#f08a5d', '#7fd1ae', '#8ec5ff', '#f6a6c1', '#d9c2ff'];

type Motif = (draw: Drawing) => string;

const MOTIFS: Record<string, Motif> = {
  bettingStrategies: chips,
  pokerGuides: cards,
  gameRules: dice,
  bettingTrends: chart,
  winningTips: target,
  gamblingResponsible: shield,
  communityInsights: network,
};
const FALLBACK_MOTIFS = Object.values(MOTIFS);

/** What a motif draws with: the canvas, the colours and the slug's random numbers. */
interface Drawing {
  width: number;
  height: number;
  palette: Palette;
  accent: string;
  /** 0, 1 or 2: the subcategory's variant of the layout. */
  variant: number;
  random: () => number;
}

/** The cover as an SVG document of `width` × `height` pixels. */
export function coverSvg(subject: CoverSubject, width: number, height: number): string {
  const categoryHash = fnv1a(subject.category ?? subject.slug);
  const subHash = fnv1a(`${subject.category ?? ''}/${subject.subcategory ?? ''}`);
  const palette = (subject.category && PALETTES[subject.category]) || FALLBACK_PALETTES[categoryHash % FALLBACK_PALETTES.length]!;
  const motif = (subject.category && MOTIFS[subject.category]) || FALLBACK_MOTIFS[categoryHash % FALLBACK_MOTIFS.length]!;
  const draw: Drawing = { width, height, palette, accent: ACCENTS[subHash % ACCENTS.length]!, variant: (subHash >>> 8) % 3, random: seeded(subject.slug) };
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="${width}" height="${height}" fill="${palette.ground}"/>`,
    backdrop(draw),
    motif(draw),
    '</svg>',
  ].join('');
}

/** Mulberry32 seeded with the slug's hash: the same numbers for the same slug, everywhere. */
function seeded(slug: string): () => number {
  let state = fnv1a(slug);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const n = (value: number) => value.toFixed(1);

/** A deeper band across the canvas and a scatter of faint suit marks: the felt of a card table. */
function backdrop({ width, height, palette, random, variant }: Drawing): string {
  const tilt = height * (0.2 + random() * 0.3);
  const band = `<path d="M0 ${n(height * 0.55 + tilt)}L${width} ${n(height * 0.25 + (variant === 1 ? tilt : 0))}L${width} ${height}L0 ${height}Z" fill="${palette.deep}"/>`;
  const marks: string[] = [];
  const count = 6 + Math.floor(random() * 5);
  for (let i = 0; i < count; i++) {
    const size = height * (0.04 + random() * 0.05);
    marks.push(suit(i % 4, random() * width, random() * height, size, palette.light, 0.12));
  }
  return band + marks.join('');
}

/** A suit sign centred on (x, y), `size` tall: spade, heart, diamond, club. */
function suit(which: number, x: number, y: number, size: number, fill: string, opacity = 1): string {
  const s = size / 2;
  const o = opacity < 1 ? ` fill-opacity="${opacity}"` : '';
  switch (which) {
    case 0:
      return `<path d="M${n(x)} ${n(y - s)}C${n(x + s * 1.2)} ${n(y - s * 0.1)} ${n(x + s)} ${n(y + s * 0.6)} ${n(x + s * 0.3)} ${n(y + s * 0.5)}L${n(x + s * 0.5)} ${n(y + s)}L${n(x - s * 0.5)} ${n(y + s)}L${n(x - s * 0.3)} ${n(y + s * 0.5)}C${n(x - s)} ${n(y + s * 0.6)} ${n(x - s * 1.2)} ${n(y - s * 0.1)} ${n(x)} ${n(y - s)}Z" fill="${fill}"${o}/>`;
    case 1:
      return `<path d="M${n(x)} ${n(y + s)}C${n(x - s * 1.4)} ${n(y)} ${n(x - s * 0.9)} ${n(y - s * 1.2)} ${n(x)} ${n(y - s * 0.45)}C${n(x + s * 0.9)} ${n(y - s * 1.2)} ${n(x + s * 1.4)} ${n(y)} ${n(x)} ${n(y + s)}Z" fill="${fill}"${o}/>`;
    case 2:
      return `<path d="M${n(x)} ${n(y - s)}L${n(x + s * 0.7)} ${n(y)}L${n(x)} ${n(y + s)}L${n(x - s * 0.7)} ${n(y)}Z" fill="${fill}"${o}/>`;
    default: {
      const r = s * 0.42;
      return `<g fill="${fill}"${o}><circle cx="${n(x)}" cy="${n(y - s * 0.45)}" r="${n(r)}"/><circle cx="${n(x - s * 0.48)}" cy="${n(y + s * 0.12)}" r="${n(r)}"/><circle cx="${n(x + s * 0.48)}" cy="${n(y + s * 0.12)}" r="${n(r)}"/><path d="M${n(x - s * 0.15)} ${n(y)}L${n(x + s * 0.15)} ${n(y)}L${n(x + s * 0.4)} ${n(y + s)}L${n(x - s * 0.4)} ${n(y + s)}Z"/></g>`;
    }
  }
}

/** Betting strategies: stacks of chips of different heights. */
function chips({ width, height, palette, accent, random, variant }: Drawing): string {
  const stacks = 3 + variant;
  const r = Math.min(width / (stacks * 3.2), height * 0.16);
  const out: string[] = [];
  for (let s = 0; s < stacks; s++) {
    const cx = width * 0.5 + (s - (stacks - 1) / 2) * r * 2.5;
    const chipsHigh = 2 + Math.floor(random() * 6);
    for (let c = 0; c < chipsHigh; c++) {
      const cy = height * 0.8 - c * r * 0.34;
      const fill = (s + c) % 2 ? accent : palette.light;
      out.push(
        `<ellipse cx="${n(cx)}" cy="${n(cy + r * 0.12)}" rx="${n(r)}" ry="${n(r * 0.42)}" fill="${palette.deep}"/><ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(r)}" ry="${n(r * 0.42)}" fill="${fill}"/>`,
      );
    }
    const topY = height * 0.8 - (chipsHigh - 1) * r * 0.34;
    out.push(
      `<ellipse cx="${n(cx)}" cy="${n(topY)}" rx="${n(r * 0.62)}" ry="${n(r * 0.25)}" fill="none" stroke="${palette.ground}" stroke-width="${n(r * 0.08)}" stroke-dasharray="${n(r * 0.2)} ${n(r * 0.14)}"/>`,
    );
  }
  return out.join('');
}

/** Poker guides: a fanned hand of cards, each with a suit. */
function cards({ width, height, palette, accent, random, variant }: Drawing): string {
  const count = 3 + variant;
  const h = height * 0.62;
  const w = h * 0.7;
  const cx = width * (0.42 + random() * 0.16);
  const cy = height * 0.56;
  const spread = 12 + random() * 8;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const angle = (i - (count - 1) / 2) * spread;
    const colour = i % 2 ? accent : palette.ground;
    out.push(
      `<g transform="rotate(${n(angle)} ${n(cx)} ${n(cy + h * 0.9)})"><rect x="${n(cx - w / 2)}" y="${n(cy - h / 2)}" width="${n(w)}" height="${n(h)}" rx="${n(w * 0.08)}" fill="${palette.light}" stroke="${palette.deep}" stroke-width="${n(w * 0.02)}"/>${suit((i + Math.floor(random() * 4)) % 4, cx, cy, h * 0.32, colour)}</g>`,
    );
  }
  return out.join('');
}

/** Game rules: two or three dice, thrown. */
function dice({ width, height, palette, accent, random, variant }: Drawing): string {
  const count = 2 + (variant === 2 ? 1 : 0);
  const size = height * 0.3;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const x = width * (0.3 + (i * 0.4) / count) + random() * size * 0.3;
    const y = height * (0.3 + random() * 0.3);
    const angle = -20 + random() * 40;
    const face = 1 + Math.floor(random() * 6);
    const pips = PIPS[face]!.map(
      ([px, py]) => `<circle cx="${n(x + (px - 0.5) * size * 0.6)}" cy="${n(y + (py - 0.5) * size * 0.6)}" r="${n(size * 0.075)}" fill="${palette.ground}"/>`,
    );
    out.push(
      `<g transform="rotate(${n(angle)} ${n(x)} ${n(y)})"><rect x="${n(x - size / 2 + size * 0.06)}" y="${n(y - size / 2 + size * 0.08)}" width="${n(size)}" height="${n(size)}" rx="${n(size * 0.18)}" fill="${palette.deep}"/><rect x="${n(x - size / 2)}" y="${n(y - size / 2)}" width="${n(size)}" height="${n(size)}" rx="${n(size * 0.18)}" fill="${i % 2 ? accent : palette.light}"/>${pips.join('')}</g>`,
    );
  }
  return out.join('');
}

/** Pip positions on a die's face, in fractions of the face. */
const PIPS: Record<number, [number, number][]> = {
  1: [[0.5, 0.5]],
  2: [
    [0, 0],
    [1, 1],
  ],
  3: [
    [0, 0],
    [0.5, 0.5],
    [1, 1],
  ],
  4: [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ],
  5: [
    [0, 0],
    [1, 0],
    [0.5, 0.5],
    [0, 1],
    [1, 1],
  ],
  6: [
    [0, 0],
    [1, 0],
    [0, 0.5],
    [1, 0.5],
    [0, 1],
    [1, 1],
  ],
};

/** Betting trends: bars and the line through them. */
function chart({ width, height, palette, accent, random, variant }: Drawing): string {
  const bars = 6 + variant * 2;
  const left = width * 0.14;
  const step = (width * 0.72) / bars;
  const base = height * 0.84;
  const out: string[] = [];
  const points: string[] = [];
  let level = 0.25 + random() * 0.2;
  for (let i = 0; i < bars; i++) {
    level = Math.min(0.9, Math.max(0.12, level + (random() - 0.4) * 0.22));
    const top = base - level * height * 0.66;
    out.push(
      `<rect x="${n(left + i * step + step * 0.15)}" y="${n(top)}" width="${n(step * 0.7)}" height="${n(base - top)}" rx="${n(step * 0.08)}" fill="${palette.light}" fill-opacity="0.85"/>`,
    );
    points.push(`${n(left + i * step + step / 2)},${n(top - height * 0.06)}`);
  }
  out.push(
    `<polyline points="${points.join(' ')}" fill="none" stroke="${accent}" stroke-width="${n(height * 0.025)}" stroke-linejoin="round" stroke-linecap="round"/>`,
  );
  const [lx, ly] = points[points.length - 1]!.split(',');
  out.push(`<circle cx="${lx}" cy="${ly}" r="${n(height * 0.035)}" fill="${accent}"/>`);
  return out.join('');
}

/** Winning tips: a target, a chip on it. */
function target({ width, height, palette, accent, random, variant }: Drawing): string {
  const cx = width * (0.38 + random() * 0.24);
  const cy = height * 0.52;
  const r = height * (0.34 + variant * 0.03);
  const out: string[] = [];
  for (let ring = 0; ring < 4; ring++) {
    out.push(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r * (1 - ring * 0.24))}" fill="${ring % 2 ? palette.ground : palette.light}"/>`);
  }
  const angle = random() * Math.PI * 2;
  const hit = r * 0.18 * random();
  out.push(
    `<circle cx="${n(cx + Math.cos(angle) * hit)}" cy="${n(cy + Math.sin(angle) * hit)}" r="${n(r * 0.14)}" fill="${accent}" stroke="${palette.deep}" stroke-width="${n(r * 0.03)}"/>`,
  );
  return out.join('');
}

/** Responsible gambling: a shield with a steady line across it. */
function shield({ width, height, palette, accent, random, variant }: Drawing): string {
  const cx = width * (0.4 + random() * 0.2);
  const top = height * 0.14;
  const w = height * 0.62;
  const h = height * 0.74;
  const d = `M${n(cx)} ${n(top)}L${n(cx + w / 2)} ${n(top + h * 0.14)}L${n(cx + w / 2)} ${n(top + h * 0.45)}C${n(cx + w / 2)} ${n(top + h * 0.75)} ${n(cx + w * 0.2)} ${n(top + h * 0.92)} ${n(cx)} ${n(top + h)}C${n(cx - w * 0.2)} ${n(top + h * 0.92)} ${n(cx - w / 2)} ${n(top + h * 0.75)} ${n(cx - w / 2)} ${n(top + h * 0.45)}L${n(cx - w / 2)} ${n(top + h * 0.14)}Z`;
  const mid = top + h * 0.48;
  const wave = variant === 0 ? 0 : h * 0.06 * variant;
  return `<path d="${d}" fill="${palette.light}"/><path d="M${n(cx - w * 0.32)} ${n(mid)}C${n(cx - w * 0.1)} ${n(mid - wave)} ${n(cx + w * 0.1)} ${n(mid + wave)} ${n(cx + w * 0.32)} ${n(mid)}" fill="none" stroke="${accent}" stroke-width="${n(h * 0.07)}" stroke-linecap="round"/><circle cx="${n(cx)}" cy="${n(top + h * 0.26)}" r="${n(h * 0.06)}" fill="${palette.ground}"/>`;
}

/** Community insights: people as nodes, linked. */
function network({ width, height, palette, accent, random, variant }: Drawing): string {
  const count = 5 + variant * 2;
  const nodes: [number, number][] = [];
  // A few tries per node for a place clear of the others: nodes drawn on top of each other read as a smudge.
  const gap = height * 0.2;
  for (let i = 0; i < count; i++) {
    let place: [number, number] = [0, 0];
    for (let attempt = 0; attempt < 8; attempt++) {
      place = [width * (0.15 + random() * 0.7), height * (0.18 + random() * 0.64)];
      if (nodes.every(([x, y]) => Math.hypot(x - place[0], y - place[1]) >= gap)) break;
    }
    nodes.push(place);
  }
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const [x1, y1] = nodes[i]!;
    const [x2, y2] = nodes[(i + 1 + (i % 2)) % count]!;
    out.push(
      `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${palette.light}" stroke-opacity="0.7" stroke-width="${n(height * 0.012)}"/>`,
    );
  }
  nodes.forEach(([x, y], i) => {
    const r = height * (i === 0 ? 0.09 : 0.045 + random() * 0.03);
    out.push(
      `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${i === 0 ? accent : palette.light}" stroke="${palette.deep}" stroke-width="${n(r * 0.15)}"/>`,
    );
  });
  return out.join('');
}
