/**
 * Fills `{name}` placeholders from `values`; an unknown placeholder is left as written, so a typo in a
 * configured text shows up in the output instead of vanishing.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Za-z]+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name]! : whole,
  );
}
