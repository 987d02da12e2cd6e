// The server's own HTML forms (login, sign-up, development login) carry a token that must match the
// browser's csrftoken cookie. Tests that post those forms without loading them send this fixed pair.
export const FORM_TOKEN = 'T'.repeat(43);
export const FORM_COOKIE = `csrftoken=${FORM_TOKEN}`;

export function withFormToken(body: Record<string, string>): Record<string, string> {
  return { ...body, csrfmiddlewaretoken: FORM_TOKEN };
}
