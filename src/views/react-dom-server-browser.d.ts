// The SSR imports react-dom's web-streams build, "react-dom/server.browser" (renderToReadableStream:
// react-dom 18's Node build lacks it). @types/react-dom only declares "react-dom/server", whose
// declarations are those of the same functions.
declare module "react-dom/server.browser" {
  export { renderToReadableStream, renderToStaticMarkup, renderToString, version } from "react-dom/server";
}
