import temml from "temml";
import type { MathRenderer } from "#islands/chat/markdown.ts";

/** Server side of answer math: the same temml call the browser makes once it has loaded temml. */
export const serverMath: MathRenderer = (tex, display) => temml.renderToString(tex, { displayMode: display, throwOnError: true });
