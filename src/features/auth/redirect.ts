// The one check for "where to go after signing in" (login, register, OAuth): same-site paths only.

const BASE = "http://same-site.invalid";
/** What browsers drop or treat as "/" while parsing a URL: controls, whitespace, backslashes. */
const IGNORED = /[\u0000-\u0020\u007f\u00a0\u1680\u2000-\u200d\u2028\u2029\u202f\u205f\u3000\ufeff]/g;

function leavesSite(s: string): boolean {
  const squeezed = s.replace(IGNORED, "").replace(/\\/g, "/");
  if (!squeezed.startsWith("/") || squeezed.startsWith("//")) return true;
  try {
    return new URL(s, BASE).origin !== BASE;
  } catch {
    return true;
  }
}

/**
 * `r` when it is a path on this site, else `fallback`. Refused: anything not starting with one "/",
 * protocol-relative ("//", "/\", "\\"), schemes, any control character, whitespace or backslash in
 * the value, and the same tricks percent-encoded once or twice ("/%2F%2Fevil", "/%09/evil", "/%5Cevil").
 */
export function safeRedirect(r: string | undefined | null, fallback = "/"): string {
  if (!r || r.length > 512 || !r.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(r) || /\s/.test(r)) return fallback;
  let s = r;
  for (let i = 0; i < 3; i++) {
    if (leavesSite(s)) return fallback;
    let next: string;
    try {
      next = decodeURIComponent(s);
    } catch {
      return r; // a stray "%" (a search for "100%"): nothing decodes it further, and what we saw was safe
    }
    if (next === s) return r;
    s = next;
  }
  // Still changing after three decodings: nobody links like that.
  return fallback;
}
