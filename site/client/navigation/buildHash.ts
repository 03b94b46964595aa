/**
 * A new build replaces the assets this page runs: when the hash in
 * /page-data/app-data.json differs from the page's, the browser loads the
 * page again in full, once per new hash (a session flag guards against a
 * reload loop when the two never agree).
 */
import { RETRIES, RETRY_DELAY_MS } from './pageData.ts';

const RELOADED_FOR = 'felt-reloaded-for-build';

/** The build of the running page, from <meta name="felt-build">. */
export function pageBuild(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="felt-build"]')?.content ?? '';
}

/** The deployed build, or undefined when app-data cannot be read (offline). */
export async function deployedBuild(): Promise<string | undefined> {
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    const response = await fetch('/page-data/app-data.json', { cache: 'no-cache', credentials: 'same-origin' }).catch(() => undefined);
    if (response?.ok) {
      const data = (await response.json().catch(() => undefined)) as { webpackCompilationHash?: unknown } | undefined;
      return typeof data?.webpackCompilationHash === 'string' ? data.webpackCompilationHash : undefined;
    }
    if (response && response.status < 500) return undefined;
  }
  return undefined;
}

/**
 * Whether to load `url` in full because the build changed; true at most
 * once per new hash in a session.
 */
export function shouldReloadFor(deployed: string | undefined): boolean {
  const running = pageBuild();
  if (!deployed || !running || deployed === running) return false;
  try {
    if (sessionStorage.getItem(RELOADED_FOR) === deployed) return false;
    sessionStorage.setItem(RELOADED_FOR, deployed);
    return true;
  } catch {
    return false; // no session storage: no guard, so no reload either
  }
}
