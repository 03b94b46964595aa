/**
 * Keeps API keys and credentials out of everything felt prints. Values of
 * secret-looking environment variables are replaced wherever they appear,
 * and well-known key shapes are masked even when they came from elsewhere.
 */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)/i;
const KEY_SHAPES = [/sk-[A-Za-z0-9_-]{8,}/g, /AIza[0-9A-Za-z_-]{20,}/g, /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g];
/** The password of a URL ("https://user:password@proxy/v1"), as in OPENAI_BASE_URL behind a proxy (issue 6). */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):[^\s/?#@]+@/gi;
/**
 * Credentials as an Authorization header carries them: a client sends a URL's
 * password as "Basic base64(user:password)", and servers quote the header
 * back in their error messages (issue 11).
 */
const AUTHORIZATION = /\b(Basic|Bearer) +([A-Za-z0-9+/._~-]{8,}=*)/g;

/** Tells a credential from prose: "Basic Strategies" in an article title stays as it is. */
function isCredential(scheme: string, token: string): boolean {
  if (scheme === 'Basic') return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(Buffer.from(token, 'base64').toString('latin1'));
  return /[0-9+/=._~-]/.test(token);
}

export function secretValues(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.entries(env)
    .filter(([name, value]) => SECRET_NAME.test(name) && typeof value === 'string' && value.length >= 6)
    .map(([, value]) => value as string);
}

export function redactSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let out = text;
  for (const value of secretValues(env)) out = out.split(value).join('***');
  for (const shape of KEY_SHAPES) out = out.replace(shape, '***');
  out = out.replace(AUTHORIZATION, (found, scheme: string, token: string) => (isCredential(scheme, token) ? `${scheme} ***` : found));
  return out.replace(URL_PASSWORD, '$1:***@');
}

const GUARDED = Symbol.for('felt.redactedOutput');

/**
 * Passes everything written to stdout and stderr through redactSecrets, not
 * only felt's own lines: the SDKs print their own debug logs when asked
 * (OPENAI_LOG=debug, NODE_DEBUG), with request URLs in them (issue 6).
 */
export function redactProcessOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write as typeof stream.write & { [GUARDED]?: true };
    if (write[GUARDED]) continue;
    const guarded = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      const text = typeof chunk === 'string' ? redactSecrets(chunk) : chunk instanceof Uint8Array ? redactSecrets(Buffer.from(chunk).toString('utf8')) : chunk;
      return (write as (...args: unknown[]) => boolean).call(this, text, ...rest);
    } as typeof stream.write & { [GUARDED]?: true };
    guarded[GUARDED] = true;
    stream.write = guarded;
  }
}
