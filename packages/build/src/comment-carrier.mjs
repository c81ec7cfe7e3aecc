// Code an executable carries without running it at start-up: in a block comment, the body of a function
// whose source V8 keeps and `Function.prototype.toString` returns. V8 skips a comment where it must scan a
// string literal and build its value, or compile code. Reading the text back from the function rather than
// from the file also holds when an install replaces the file under a running executable.

// A comment ends at the first "*/": each one in the text is carried as "*\x01/", the byte 0x01 not being
// in the text (checked). The comment opens with that byte, which the decoder reads from there rather
// than spelling it: esbuild would fold any spelling into a raw control character in the decoder's own
// code, which may itself be carried.

/**
 * A function declaration named `name` carrying `text`.
 *
 * @param {string} name
 * @param {string} text
 * @returns {string}
 */
export function carrierFunction(name, text) {
  const bad = /[^\u0002-\u007f]/.exec(text);
  if (bad) {
    const code = bad[0].charCodeAt(0).toString(16).padStart(4, "0");
    throw new Error(
      `${name}: the carried code must be ASCII without NUL or 0x01, as esbuild writes it; U+${code} at ${bad.index}`,
    );
  }
  return `function ${name}() {/*\u0001\n${text.replaceAll("*/", "*\u0001/")}*/}`;
}

/**
 * A JavaScript expression, the text carried by the function `name` evaluates to.
 *
 * @param {string} name
 * @returns {string}
 */
export function carriedText(name) {
  return [
    "((source) => {",
    ' const start = source.indexOf("/*") + 2;',
    ' return source.slice(start + 2, source.lastIndexOf("*/")).replaceAll("*" + source[start] + "/", "*/");',
    ` })(${name}.toString())`,
  ].join("");
}
