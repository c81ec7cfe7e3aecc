/** How a JSON file is laid out, so a rewrite keeps the user's indentation and line endings. */
export interface JsonFormat {
  indent: string;
  eol: "\n" | "\r\n";
  finalNewline: boolean;
}

export function detectFormat(text: string | null): JsonFormat {
  const indent = text ? /^([ \t]+)\S/m.exec(text)?.[1] : undefined;
  return {
    indent: indent ?? "  ",
    eol: text?.includes("\r\n") ? "\r\n" : "\n",
    finalNewline: text === null || text.trim() === "" || /\n$/.test(text),
  };
}

export function formatJson(value: unknown, format: JsonFormat): string {
  const text = JSON.stringify(value, null, format.indent);
  const lines = format.eol === "\r\n" ? text.replace(/\n/g, "\r\n") : text;
  return format.finalNewline ? `${lines}${format.eol}` : lines;
}
