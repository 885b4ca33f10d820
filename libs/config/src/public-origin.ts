import { z } from 'zod';

/**
 * An optional origin setting (scheme among `schemes`, host, optional port; no path, query or
 * credentials), normalised to `scheme(secure)://host[:port]`: "secure" is https or wss.
 */
export function publicOrigin(schemes: string[], example: string, scheme: (secure: boolean) => string) {
  const pattern = new RegExp(`^(${schemes.join('|')}):$`);
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      let url: URL;
      try {
        url = new URL(value.trim());
      } catch {
        ctx.addIssue({ code: 'custom', message: `must be a ${schemes.join(', ')} URL, e.g. ${example}` });
        return z.NEVER;
      }
      if (!pattern.test(url.protocol) || url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
        ctx.addIssue({ code: 'custom', message: `must be an origin (scheme ${schemes.join(', ')}, host, optional port), without path, query or credentials` });
        return z.NEVER;
      }
      return `${scheme(url.protocol === 'https:' || url.protocol === 'wss:')}://${url.host}`;
    });
}
