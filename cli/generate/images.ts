/**
 * `generation.images` (issue 18 item 7): a cover picture for each new
 * article from the provider's images API, through the same openai client
 * (and its retries) as the articles. The picture goes into the bucket beside
 * its article, `images/{locale}/{slug}.png`; publish and pull carry it with
 * the article, and the build shows it instead of the drawn cover
 * (site/pictures/providerPictures.ts).
 *
 * A picture is a bonus, never a reason to lose an article: the article is
 * stored first, and a picture that fails is reported and skipped (the drawn
 * cover stands in).
 */
import path from 'node:path';
import { SLUG_PATTERN } from '../../shared/names.ts';
import type { ImageSettings } from '../../shared/types.ts';
import { isPreconditionFailed } from '../storage/errors.ts';
import type { Bucket } from '../storage/types.ts';
import type { Llm } from './llm.ts';

export const IMAGE_CONTENT_TYPE = 'image/png';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function isPng(data: Uint8Array): boolean {
  return Buffer.from(data.subarray(0, 8)).equals(PNG_SIGNATURE);
}

export function pictureObjectName(locale: string, slug: string): string {
  return `images/${locale}/${slug}.png`;
}

/** The slug of a picture object of `locale`, or undefined for any other name (as articleSlugOf for articles). */
export function pictureSlugOf(name: string, locale: string): string | undefined {
  const slug = path.posix.basename(name, '.png');
  return name === pictureObjectName(locale, slug) && SLUG_PATTERN.test(slug) ? slug : undefined;
}

/** The picture's prompt: the subject, and no lettering (the page has the title; text in pictures is rarely right). */
export function picturePrompt(title: string, category: string): string {
  return [
    `An editorial illustration for a magazine article about betting and poker titled "${title}" (section: ${category}).`,
    'Flat, modern, calm colours, a wide landscape composition with the subject in the centre.',
    'No text, letters, numbers, logos or watermarks; no real people or brands.',
  ].join(' ');
}

export interface PictureRequest {
  llm: Llm;
  bucket: Bucket;
  settings: ImageSettings;
  locale: string;
  slug: string;
  title: string;
  category: string;
  signal?: AbortSignal;
}

/** Asks for the picture and stores it; returns what happened, for the run's log. Never throws but on abort. */
export async function storePicture(request: PictureRequest): Promise<string> {
  const object = pictureObjectName(request.locale, request.slug);
  try {
    const png = await askPicture(request);
    if (!isPng(png)) return `picture for ${request.slug} skipped: the provider's answer is not a PNG`;
    await request.bucket.write(object, png, {
      contentType: IMAGE_CONTENT_TYPE,
      ifGenerationMatch: 0,
      metadata: { 'felt-image-model': request.settings.model },
    });
    return `stored ${object}`;
  } catch (error) {
    request.signal?.throwIfAborted();
    if (isPreconditionFailed(error)) return `${object} is already in the bucket; kept`;
    return `picture for ${request.slug} skipped: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function askPicture({ llm, settings, title, category, signal }: PictureRequest): Promise<Buffer> {
  // GPT image models always answer in base64 and refuse response_format; DALL·E answers with a URL unless asked.
  const base64Asked = settings.model.startsWith('dall-e') ? { response_format: 'b64_json' as const } : {};
  const answer = await llm.call(
    (callSignal) =>
      llm.client.images.generate(
        {
          model: settings.model,
          prompt: picturePrompt(title, category),
          n: 1,
          ...(settings.size ? { size: settings.size as never } : {}),
          ...(settings.quality ? { quality: settings.quality } : {}),
          ...base64Asked,
        },
        { signal: callSignal },
      ),
    signal,
  );
  const b64 = answer.data?.[0]?.b64_json;
  if (!b64) throw new Error('the answer holds no image');
  return Buffer.from(b64, 'base64');
}
