// The JSON props of the first island of this name in a rendered page, as islands/client.ts reads them
// (any: each test checks the shape it expects).
const unescapeHtml = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

export function islandProps(body: string, name: string): any {
  const m = new RegExp(`data-island="${name}" data-props="([^"]*)"`).exec(body);
  return m ? JSON.parse(unescapeHtml(m[1]!)) : null;
}
