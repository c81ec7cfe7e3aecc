/** A JavaScript string literal holding `text`, ASCII only: V8 scans a one-byte string fastest. */
export function asciiLiteral(text) {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
