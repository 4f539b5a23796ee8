// Repairs two flaws of mathml2omml's output before it goes into a document:
// - text left directly inside a structure element (`<m:e><m:r>…</m:r>=2</m:e>` after a big operator),
//   which is not valid OMML: it is wrapped in its own `<m:r><m:t>`;
// - a big operator (∑, ∫…) with an empty body followed by its operand (`\sum_i x_i`): Word would draw
//   an empty placeholder box, so the next element becomes the body.
// The input is machine-made XML (no comments, CDATA or `>` inside attributes), so a small parser suffices.

interface El {
  name: string;
  attrs: string;
  children: Node[];
}
type Node = El | string;

const TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[^\s=/>]+="[^"]*")*)\s*(\/?)>/g;
const TEXT_PARENTS = new Set(["m:t", "w:t", "w:instrText"]);

function parse(xml: string): El {
  const root: El = { name: "", attrs: "", children: [] };
  const stack: El[] = [root];
  let last = 0;
  for (const m of xml.matchAll(TAG)) {
    const text = xml.slice(last, m.index);
    if (text) stack.at(-1)!.children.push(text);
    last = m.index! + m[0].length;
    const [, close, name, attrs, selfClose] = m;
    if (close) {
      if (stack.length > 1 && stack.at(-1)!.name === name) stack.pop();
      else throw new Error(`unbalanced </${name}>`);
    } else {
      const el: El = { name: name!, attrs: attrs ?? "", children: [] };
      stack.at(-1)!.children.push(el);
      if (!selfClose) stack.push(el);
    }
  }
  const tail = xml.slice(last);
  if (tail.trim() || stack.length !== 1) throw new Error("malformed OMML");
  return root;
}

function serialize(n: Node): string {
  if (typeof n === "string") return n;
  const inner = n.children.map(serialize).join("");
  if (!n.name) return inner;
  return inner ? `<${n.name}${n.attrs}>${inner}</${n.name}>` : `<${n.name}${n.attrs}/>`;
}

const run = (text: string): El => ({ name: "m:r", attrs: "", children: [{ name: "m:t", attrs: ' xml:space="preserve"', children: [text] }] });
const isEmpty = (e: El | undefined) => !!e && e.children.every((c) => typeof c === "string" && !c.trim());
const textOf = (n: Node): string => (typeof n === "string" ? n : n.children.map(textOf).join(""));
// An operand, not a relation or operator that only follows the sum (`\sum_i = 3`).
const isOperand = (n: Node | undefined): n is El => !!n && typeof n !== "string" && !/^\s*[=<>+\-−±×÷≤≥≠≈,;.&]/.test(textOf(n));

function fix(el: El) {
  if (!TEXT_PARENTS.has(el.name)) {
    el.children = el.children.flatMap((c) => (typeof c !== "string" ? [c] : c.trim() ? [run(c)] : []));
  }
  for (let i = 0; i < el.children.length; i++) {
    const c = el.children[i]!;
    if (typeof c === "string") continue;
    if (c.name === "m:nary") {
      const body = c.children.find((x): x is El => typeof x !== "string" && x.name === "m:e");
      const next = el.children[i + 1];
      if (body && isEmpty(body) && isOperand(next)) {
        body.children = [next];
        el.children.splice(i + 1, 1);
      }
    }
    fix(c);
  }
}

/** The OMML with stray text wrapped in runs and empty operator bodies filled. Throws on malformed input. */
export function fixOmml(omml: string): string {
  const root = parse(omml);
  fix(root);
  return serialize(root);
}
