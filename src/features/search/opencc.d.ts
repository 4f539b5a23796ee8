// opencc-js ships its tables as modules of one "from to|from to" string, without declarations.
declare module "opencc-js/dict/*" {
  const table: string;
  export default table;
}
