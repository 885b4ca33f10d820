/**
 * A webhook URL as it is shown to anyone who may not manage its endpoint: dashboard viewers, the
 * environment's live log, audit entries and `endpoint.disabled` events sent to the environment's
 * other endpoints. A receiver may authenticate requests by a credential in its URL, so those parts
 * are masked: the userinfo (`user:password@`, which the URL policy refuses, but a URL stored
 * before that rule may hold it), every query value (the parameter names stay, so a reader can
 * tell two endpoints apart), a query part without `=` as a whole (it may be a bare token), and the
 * fragment is dropped (it is never sent). Scheme, host, port and path are shown as they are. The
 * full URL is for the secret key and for members who may manage the endpoint.
 */

/** What stands in for each masked part. */
export const REDACTED = '***';

export function redactWebhookUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return REDACTED;
  }
  const userinfo = url.username !== '' || url.password !== '' ? `${REDACTED}@` : '';
  const query = url.search === '' ? '' : `?${url.search.slice(1).split('&').map(maskQueryPart).join('&')}`;
  return `${url.protocol}//${userinfo}${url.host}${url.pathname}${query}`;
}

function maskQueryPart(part: string): string {
  if (part === '') return part;
  const equals = part.indexOf('=');
  return equals < 0 ? REDACTED : `${part.slice(0, equals)}=${REDACTED}`;
}

/** `row` with its `url` redacted (an endpoint, a delivery, the environment's webhook settings). */
export function withRedactedUrl<Row extends { url: string | null }>(row: Row): Row {
  return row.url === null ? row : { ...row, url: redactWebhookUrl(row.url) };
}
