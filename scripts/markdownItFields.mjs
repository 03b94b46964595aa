// markdown-it 15's published build (dist/markdown-it.mjs) compiles its class
// fields to calls of a generic helper, `_defineProperty(this, "name", value)`:
// twelve for each Token, more for each parser state. The one helper stores
// every field of every class, so each store is megamorphic and goes through
// toPropertyKey/toPrimitive first: parsing a bench article took 325 µs with
// it and 230 µs with plain assignments (about 1 s of CPU at 10,000 articles).
// scripts/compile.mjs bundles markdown-it through this transform. The fields
// are new own properties of a fresh object, and no markdown-it class has an
// accessor or a read-only property of the same name on its prototype, so
// `this.name = value` makes the same object (tests/build/markdownItFields.test.ts
// renders the same HTML with both). A build of markdown-it without the helper
// passes through unchanged.
export function assignClassFields(source) {
  return source.replace(/_defineProperty\(\s*this,\s*(?:\/\*[\s\S]*?\*\/\s*)?"([A-Za-z_$][\w$]*)",/g, '(this.$1 =');
}
