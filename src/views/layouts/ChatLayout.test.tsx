import { describe, expect, test } from "bun:test";
import { renderToString } from "react-dom/server.browser";
import { RequestContext } from "../request.tsx";
import { ChatLayout, chatSection } from "./ChatLayout.tsx";

const render = (path: string) =>
  renderToString(
    <RequestContext.Provider value={{ path, search: "", user: null }}>
      <ChatLayout><p id="page">对话内容</p></ChatLayout>
    </RequestContext.Provider>,
  );

const links = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>.*?<span>([^<]+)<\/span><\/a>/g)].map((m) => [m[1], m[2]]);
const activeHref = (html: string) => /<a href="([^"]+)"[^>]*class="chat-nav-item active"/.exec(html)?.[1];

describe("ChatLayout", () => {
  test("sidebar has the five links of spec §2 in order, and the page inside main", () => {
    const html = render("/chat/dialog");
    expect(links(html)).toEqual([
      ["/", "首页"],
      ["/chat/dialog", "AI 对话"],
      ["/chat/search", "AI 搜索"],
      ["/chat/history", "历史会话"],
      ["/me", "个人中心"],
    ]);
    expect(html).toContain('<main class="chat-main"><p id="page">对话内容</p></main>');
  });

  test("exactly one entry is active, chosen by path", () => {
    const cases: [string, string][] = [
      ["/chat/dialog", "/chat/dialog"],
      ["/chat", "/chat/dialog"],
      ["/chat/42", "/chat/dialog"],
      ["/chat/search", "/chat/search"],
      ["/chat/history", "/chat/history"],
      ["/me", "/me"],
      ["/", "/"],
    ];
    for (const [path, href] of cases) {
      const html = render(path);
      expect(html.match(/chat-nav-item active/g)?.length).toBe(1);
      expect(activeHref(html)).toBe(href);
      expect(html).toContain('aria-current="page"');
    }
  });

  test("paths outside the chat pages highlight nothing", () => {
    expect(chatSection("/document/abc")).toBeNull();
    expect(chatSection("/chatroom")).toBeNull();
    expect(render("/document/abc")).not.toContain("chat-nav-item active");
  });
});
