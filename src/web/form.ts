/** Reading urlencoded form fields, which arrive as a string, a list of strings, or not at all. */

/** The field's (first) value, or null. */
export function field(value: unknown): string | null {
  if (Array.isArray(value)) return field(value[0]);
  return typeof value === 'string' ? value : null;
}

/** Every value of a field that may repeat (checkboxes of one name). */
export function fields(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}
