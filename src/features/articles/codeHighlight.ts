// Code blocks coloured on the server: a small tokenizer per language family (comments, strings,
// numbers, keywords, tags), every piece escaped. Unknown languages are escaped only. Enough for
// the languages articles show most; a full grammar engine would cost the page nothing but the
// server a dependency.

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]!);

type Rule = [cls: string, re: RegExp];
interface Grammar { rules: Rule[]; keywords: Set<string>; literals: Set<string>; ignoreCase?: boolean }

const words = (s: string) => new Set(s.split(" "));
const NUM: Rule = ["n", /0x[0-9a-f]+|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?[a-z%]*/iy];
const IDENT: Rule = ["id", /[A-Za-z_$][\w$]*/y];
const SLASH_COMMENTS: Rule[] = [["c", /\/\/[^\n]*/y], ["c", /\/\*[\s\S]*?(?:\*\/|$)/y]];
const QUOTES: Rule[] = [["s", /"(?:\\[\s\S]|[^"\\\n])*"?/y], ["s", /'(?:\\[\s\S]|[^'\\\n])*'?/y]];
const LITERALS = words("true false null undefined nil None True False NULL nullptr this self super");

const cLike = (kw: string, extra: Rule[] = []): Grammar => ({ rules: [...SLASH_COMMENTS, ...extra, ...QUOTES, NUM, IDENT], keywords: words(kw), literals: LITERALS });

const JS = cLike(
  "break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return static switch throw try typeof var void while with yield async await as interface type enum implements private protected public readonly declare namespace abstract keyof satisfies",
  [["s", /`(?:\\[\s\S]|[^`\\])*`?/y]],
);
const JAVA = cLike("abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized throw throws transient try void volatile while var record fun val when object companion data sealed override open internal suspend");
const C = cLike("auto break case char const continue default do double else enum extern float for goto if inline int long register return short signed sizeof static struct switch typedef union unsigned void volatile while class namespace template typename public private protected virtual override new delete using include define ifdef ifndef endif pragma bool std string vector", [["m", /#\s*[a-z]+/y]]);
const CS = cLike("abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum event explicit extern finally fixed float for foreach goto if implicit in int interface internal is lock long namespace new object operator out override params private protected public readonly ref return sbyte sealed short sizeof stackalloc static string struct switch throw try typeof uint ulong unchecked unsafe ushort using virtual void volatile while var async await get set");
const GO = cLike("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var string int int64 float64 bool byte rune error", [["s", /`[^`]*`?/y]]);
const RUST = cLike("as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return static struct trait type unsafe use where while Self i32 i64 u8 u32 u64 usize f32 f64 str String Vec Option Result Some Ok Err");
const PHP = cLike("abstract and array as break callable case catch class clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile extends final finally fn for foreach function global goto if implements include instanceof insteadof interface isset list namespace new or print private protected public require return static switch throw trait try unset use var while yield", [["v", /\$[A-Za-z_]\w*/y], ["c", /#[^\n]*/y]]);
const SWIFT = cLike("class deinit enum extension func import init let protocol struct subscript typealias var break case continue default defer do else fallthrough for guard if in repeat return switch where while as catch is rethrows throw throws try async await");

const HASH_COMMENT: Rule = ["c", /#[^\n]*/y];
const PY: Grammar = {
  rules: [HASH_COMMENT, ["s", /(?:[rbuf]{0,2})("""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$))/iy], ...QUOTES, ["m", /@[\w.]+/y], NUM, IDENT],
  keywords: words("and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield print self"),
  literals: LITERALS,
};
const SHELL: Grammar = {
  rules: [HASH_COMMENT, ...QUOTES, ["v", /\$\{[^}\n]*\}?|\$[\w@#?$!*-]/y], NUM, ["id", /[A-Za-z_][\w-]*/y]],
  keywords: words("if then else elif fi for while until do done case esac in function return exit export local readonly set unset echo cd source alias sudo"),
  literals: LITERALS,
};
const SQL: Grammar = {
  rules: [["c", /--[^\n]*/y], ["c", /\/\*[\s\S]*?(?:\*\/|$)/y], ...QUOTES, ["s", /`[^`\n]*`?/y], NUM, IDENT],
  keywords: words("select from where and or not insert into values update set delete create table drop alter add column index primary key foreign references join left right inner outer full cross on as group by order having limit offset union all distinct case when then else end in is null like between exists default unique check view trigger begin commit rollback transaction asc desc with returning if replace integer text varchar int bigint real boolean date timestamp count sum avg min max"),
  literals: LITERALS,
  ignoreCase: true,
};
const JSON_G: Grammar = { rules: [["k", /"(?:\\[\s\S]|[^"\\\n])*"(?=\s*:)/y], ...QUOTES, NUM, IDENT], keywords: new Set(), literals: LITERALS };
const CSS: Grammar = {
  rules: [["c", /\/\*[\s\S]*?(?:\*\/|$)/y], ...QUOTES, ["m", /@[\w-]+/y], ["k", /[\w-]+(?=\s*:[^;{}]*[;}])/y], ["n", /#[0-9a-f]{3,8}\b/iy], NUM, ["id", /[\w-]+/y]],
  keywords: words("important inherit initial auto none"),
  literals: new Set(),
};
const YAML: Grammar = { rules: [HASH_COMMENT, ["k", /[\w.-]+(?=\s*:(?:\s|$))/y], ...QUOTES, NUM, IDENT], keywords: new Set(), literals: LITERALS };

const GRAMMARS: Record<string, Grammar> = {};
const alias = (g: Grammar, names: string) => names.split(" ").forEach((n) => (GRAMMARS[n] = g));
alias(JS, "js javascript jsx ts typescript tsx mjs cjs node");
alias(JAVA, "java kotlin kt scala groovy dart");
alias(C, "c h cpp cc cxx hpp c++ objc objectivec arduino");
alias(CS, "cs csharp c#");
alias(GO, "go golang");
alias(RUST, "rust rs");
alias(PHP, "php");
alias(SWIFT, "swift");
alias(PY, "py python python3 ruby rb r perl pl");
alias(SHELL, "sh bash shell zsh console powershell ps1 dockerfile makefile nginx ini conf toml");
alias(SQL, "sql mysql sqlite postgres postgresql plsql");
alias(JSON_G, "json json5 jsonc");
alias(CSS, "css scss sass less stylus");
alias(YAML, "yaml yml");

function markup(code: string): string {
  // Tags, attribute names and values, comments; text between tags stays plain.
  const re = /(<!--[\s\S]*?(?:-->|$))|(<\/?[A-Za-z][\w:.-]*)|("[^"]*"|'[^']*')|([A-Za-z_:][\w:.-]*)(?==)|(\/?>)/g;
  let out = "";
  let last = 0;
  let inTag = false;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    const [all, comment, open, str, attr, close] = m;
    if (!inTag && !comment && !open) continue;
    out += esc(code.slice(last, m.index));
    if (comment) out += `<span class="hl-c">${esc(all)}</span>`;
    else if (open) (out += `<span class="hl-t">${esc(all)}</span>`), (inTag = true);
    else if (str) out += `<span class="hl-s">${esc(all)}</span>`;
    else if (attr) out += `<span class="hl-a">${esc(all)}</span>`;
    else if (close) (out += `<span class="hl-t">${esc(all)}</span>`), (inTag = false);
    last = m.index + all.length;
  }
  return out + esc(code.slice(last));
}

/** Escaped HTML of the code with `hl-*` spans: c comment, s string, n number, k keyword, l literal, m meta, v variable, t tag, a attribute. */
export function highlightCode(code: string, lang: string): string {
  const key = lang.trim().toLowerCase();
  if (/^(?:html|xml|svg|vue|xhtml|htm|markup)$/.test(key)) return markup(code);
  const g = GRAMMARS[key];
  if (!g) return esc(code);
  let out = "";
  let plain = "";
  let i = 0;
  const flush = () => ((out += esc(plain)), (plain = ""));
  outer: while (i < code.length) {
    for (const [cls, re] of g.rules) {
      re.lastIndex = i;
      const m = re.exec(code);
      if (!m || !m[0]) continue;
      const text = m[0];
      let kind = cls;
      if (cls === "id") {
        const w = g.ignoreCase ? text.toLowerCase() : text;
        kind = g.keywords.has(w) ? "k" : g.literals.has(text) ? "l" : "";
      }
      flush();
      out += kind ? `<span class="hl-${kind}">${esc(text)}</span>` : esc(text);
      i += text.length;
      continue outer;
    }
    plain += code[i];
    i++;
  }
  flush();
  return out;
}
