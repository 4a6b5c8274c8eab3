// Which field of a 5-field cron expression holds a number out of its range, so that a refusal can name it
// ("its hour must be from 0 to 23, not 25") instead of doubting that the expression has five fields.

interface FieldRange {
  name: string;
  min: number;
  max: number;
}

const FIELDS: readonly FieldRange[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of the month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  // node-cron reads both 0 and 7 as Sunday.
  { name: 'weekday', min: 0, max: 7 },
];

/**
 * The numbers a part of a field names: `5`, `1-5`, `*\/15` (the step is no value of the field). Longer numbers
 * than a field ever needs are left to the general refusal: they are no typo of a value.
 */
function numbersOf(part: string): string[] {
  const [range = ''] = part.split('/');
  return range.split('-').filter((end) => /^\d{1,2}$/.test(end));
}

/** The first number out of its field's range, as a sentence's end; null when every number fits. */
export function cronRangeProblem(fields: readonly string[]): string | null {
  for (const [i, field] of fields.entries()) {
    const range = FIELDS[i];
    if (!range) return null;
    for (const part of field.split(',')) {
      const wrong = numbersOf(part).find((n) => Number(n) < range.min || Number(n) > range.max);
      if (wrong !== undefined) return `must have its ${range.name} from ${range.min} to ${range.max}, not ${wrong}`;
    }
  }
  return null;
}
