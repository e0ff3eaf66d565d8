// talisman ships no types; the one function used here (CommonJS, module.exports = similarity).
declare module "talisman/metrics/jaro-winkler" {
  const jaroWinkler: (a: string, b: string) => number;
  export default jaroWinkler;
}
declare module "talisman/phonetics/double-metaphone" {
  const doubleMetaphone: (word: string) => [string, string];
  export default doubleMetaphone;
}
